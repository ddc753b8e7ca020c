/**
 * A local stand-in for the provider and institution sites a registration request names (tests never reach
 * the internet): home pages answer 200, `/<anything>/items/<digits>` 200, `/slow/...` after 3 s, the rest
 * 404. It records every path it was asked for. The URL checks only reach it with
 * URL_CHECK_ALLOW_PRIVATE_NETWORKS set, since it listens on 127.0.0.1.
 */
import http from 'node:http';
import type net from 'node:net';
import type { BothAreas } from './areas.js';
import { waitFor } from './wait.js';

export async function startSites() {
  const sockets = new Set<net.Socket>();
  const hits: string[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    hits.push(url);
    if (url.startsWith('/slow/')) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        res.end('late');
      }, 3000);
      timers.add(timer);
      return;
    }
    const ok = /^\/(home|institution)(\/|$)/.test(url) || /^\/[a-z0-9]+\/items\/[0-9]+$/.test(url);
    res.writeHead(ok ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(ok ? 'ok' : 'missing');
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    hits,
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
export type Sites = Awaited<ReturnType<typeof startSites>>;

/**
 * Taxonomy's providers are on the internet; this makes them all the local stand-in, and waits until the
 * resolver answers with it, so that a browser following taxonomy:9606 ends on loopback (/taxonomy/items/9606).
 */
export async function resolveTaxonomyToSites(areas: Pick<BothAreas, 'db' | 'resolver'>, sites: Sites): Promise<void> {
  const taxonomy = (await areas.db('namespaces').where({ prefix: 'taxonomy' }).first('id'))!.id;
  await areas.db('resources').where({ namespaceId: taxonomy }).update({ urlPattern: sites.url('/taxonomy/items/{$id}') });
  await waitFor(async () => (await areas.resolver.send({ method: 'GET', path: '/taxonomy:9606' })).text.includes('127.0.0.1'), {
    timeoutMs: 10_000,
    what: 'the resolver answering with the local provider',
  });
}
