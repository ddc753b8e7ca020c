import http from 'node:http';
import type net from 'node:net';
import type { DatasetNamespace } from '../../src/importer/dataset.schema.js';

/**
 * A local server standing in for every provider host of the registry: each resource's URL pattern and home
 * URL are rewritten to point at it (`https://www.ebi.ac.uk/chebi/...` → `http://127.0.0.1:<port>/www.ebi.ac.uk/chebi/...`),
 * so that a run planned over the real registry could never reach a real provider, even if a worker took its
 * jobs. The planning benchmark starts no worker: the server counts the requests it gets, which must be none.
 */
export async function startFixtureHosts() {
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => {
    requests += 1;
    res.end('ok');
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    base,
    requests: () => requests,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** `url` with its scheme and host moved into the path of `base`; what is not a URL is left as it is. */
export function standInUrl(url: string, base: string): string {
  const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)(.*)$/i.exec(url);
  return match ? `${base}/${match[1]}${match[2]!.startsWith('/') || match[2] === '' ? '' : '/'}${match[2]}` : url;
}

/** The registry with every resource's URLs pointing at the stand-in hosts, the rest unchanged. */
export function withStandInHosts(namespaces: DatasetNamespace[], base: string): DatasetNamespace[] {
  return namespaces.map((namespace) => ({
    ...namespace,
    resources: namespace.resources.map((resource) => ({
      ...resource,
      urlPattern: standInUrl(resource.urlPattern, base),
      resourceHomeUrl: standInUrl(resource.resourceHomeUrl, base),
    })),
  }));
}
