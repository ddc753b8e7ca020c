/**
 * The browse API's answer cache is keyed by what the route reads of the query (its paging, sort and search
 * parameters, normalised), not by the whole URL, and is bounded in bytes (issue 10, item 8): parameters a
 * route does not know, and paging values it would replace by its defaults anyway, are answered from the
 * cache, so a flood of GETs with made-up parameters neither queries the database per request nor grows the
 * registry's memory. The flood is measured on the real registry process (dist/src/registry/main.js) over
 * the complete identifiers.org registry (REGISTRY_DATASET), where a page of 1,000 namespaces is about a
 * megabyte; over the sample registry the same page is small, so the memory figure only counts with the
 * real data (skipped without it, failing under CI as the other real-data tests do).
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { REGISTRY_URL, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { stopProcess } from '../support/processes.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { startAreaProcess, type AreaProcess } from '../support/service-processes.js';

const realDataset = registryDataset();
const dataset = realDataset.file;
const API = `${REGISTRY_URL}/restApi`;
const FLOOD_REQUESTS = 1000;
const FLOOD_CONCURRENCY = 16;
const ALLOWED_GROWTH_MB = 100;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}

/** A GET over a keep-alive agent; resolves to the status and the body's length. */
function get(agent: http.Agent, port: number, pathAndQuery: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: pathAndQuery, agent }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

let t: RegistryUnderTest;

beforeAll(async () => {
  t = await startRegistry('browse_cache', { data: dataset ? { file: dataset } : 'sample' });
}, 120_000);
afterAll(() => t.close());

describe('the browse answer cache', () => {
  let app: RequestListener;
  let queries = 0;
  const countQuery = () => void queries++;
  /** Database queries one GET costs: 1 (the registry version probe) for an answer from the cache. */
  const queriesFor = async (url: string) => {
    const before = queries;
    const res = await request(app).get(url);
    expect([url, res.status]).toEqual([url, 200]);
    return { res, queries: queries - before };
  };

  beforeAll(() => {
    app = t.app;
    t.db.on('query', countQuery);
  });
  afterAll(() => void t.db.off('query', countQuery));

  it('answers parameters a route does not read from the cache, with self as each request was written', async () => {
    const first = await queriesFor('/restApi/namespaces?size=5&junk=1');
    expect(first.queries).toBeGreaterThan(1);

    for (const url of [
      '/restApi/namespaces?size=5&junk=2',
      '/restApi/namespaces?junk=3&size=5&utm_source=mail',
      '/restApi/namespaces?size=5&page=undefined',
      '/restApi/namespaces?size=5&page=0&sort=',
      '/restApi/namespaces?size=05&sort=nosuchfield,desc',
    ]) {
      const again = await queriesFor(url);
      expect([url, again.queries]).toEqual([url, 1]);
      expect(again.res.body._links.self).toEqual({ href: `${REGISTRY_URL}${url}` });
      expect({ ...again.res.body, _links: { ...again.res.body._links, self: null } }).toEqual({
        ...first.res.body,
        _links: { ...first.res.body._links, self: null },
      });
    }
  });

  it('answers each item, search and association without the parameters it does not read from one entry', async () => {
    for (const base of ['/restApi/namespaces/search/findByPrefix?prefix=go', '/restApi/resources/search/findAllByNamespaceId?id=1', '/restApi/locations/GB']) {
      const first = await queriesFor(`${base}${base.includes('?') ? '&' : '?'}junk=a`);
      const again = await queriesFor(`${base}${base.includes('?') ? '&' : '?'}junk=b&page=3`);
      expect([base, again.queries]).toEqual([base, 1]);
      if (base.includes('findAllByNamespaceId')) {
        expect(again.res.body._links.self.href).toBe(`${REGISTRY_URL}${base}&junk=b&page=3`);
      } else {
        expect(again.res.body).toEqual(first.res.body);
      }
    }
  });

  it('keeps apart what a route does read: paging, the applied sort, search values and the spelling of a parameter', async () => {
    await queriesFor('/restApi/namespaces?size=3');
    for (const url of ['/restApi/namespaces?size=4', '/restApi/namespaces?size=3&page=1', '/restApi/namespaces?size=3&sort=prefix,desc']) {
      expect([url, (await queriesFor(url)).queries]).not.toEqual([url, 1]);
    }
    const descending = await queriesFor('/restApi/namespaces?size=3&sort=prefix,desc&sort=nosuchfield');
    expect(descending.queries).toBe(1);
    expect(descending.res.body._links.next.href).toBe(`${API}/namespaces?page=1&size=3&sort=prefix,desc`);

    const byName = await queriesFor('/restApi/institutions/search/findByNameContaining?name=Institute&size=1');
    const byNameContent = await queriesFor('/restApi/institutions/search/findByNameContaining?nameContent=Institute&size=1');
    expect(byName.res.body._links.first.href).toContain('?name=Institute&');
    expect(byNameContent.res.body._links.first.href).toContain('?nameContent=Institute&');
    const other = await queriesFor('/restApi/namespaces/search/findByPrefix?prefix=chebi');
    expect(other.res.body.prefix).toBe('chebi');
    // The router matches paths whatever their case: so does the key.
    for (const prefix of ['go', 'chebi', 'go']) {
      const res = await queriesFor(`/restApi/namespaces/SEARCH/findByPrefix/?prefix=${prefix}&junk=${prefix}`);
      expect(res.res.body.prefix).toBe(prefix);
    }
    const pages = await Promise.all(['0', '1'].map((page) => queriesFor(`/restApi/NAMESPACES/?size=2&page=${page}`)));
    expect(pages[0]!.res.body.page.number).toBe(0);
    expect(pages[1]!.res.body.page.number).toBe(1);
  });
});

describeRequiring([realDataset], 'a flood of browse GETs with made-up parameters', () => {
  let registry: AreaProcess;
  let port: number;

  beforeAll(async () => {
    registry = await startAreaProcess('registry', t, {}, { readyPath: '/health/live' });
    port = registry.port;
  }, 60_000);
  afterAll(() => stopProcess(registry));

  it(
    `grows the registry's memory by less than ${ALLOWED_GROWTH_MB} MB over ${FLOOD_REQUESTS} GETs of /restApi/namespaces?size=1000&junk=N`,
    async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: FLOOD_CONCURRENCY });
      try {
        // Warm: the page once, as any client would ask for it, so the figure is the flood's alone.
        const warm = await get(agent, port, '/restApi/namespaces?size=1000');
        expect(warm.status).toBe(200);
        const before = rssMb(registry.child.pid!);

        let next = 0;
        let peak = before;
        const failures: number[] = [];
        const started = performance.now();
        await Promise.all(
          Array.from({ length: FLOOD_CONCURRENCY }, async () => {
            while (next < FLOOD_REQUESTS) {
              const n = next++;
              const res = await get(agent, port, `/restApi/namespaces?size=1000&junk=${n}`);
              if (res.status !== 200 || res.bytes < warm.bytes) failures.push(res.status);
              if (n % 50 === 0) peak = Math.max(peak, rssMb(registry.child.pid!));
            }
          }),
        );
        const after = rssMb(registry.child.pid!);
        peak = Math.max(peak, after);
        console.info(
          `browse cache: ${FLOOD_REQUESTS} GETs (${Math.round(warm.bytes / 1024)} KiB each) in ${Math.round(performance.now() - started)} ms; ` +
            `registry RSS ${Math.round(before)} MB before, ${Math.round(peak)} MB at most, ${Math.round(after)} MB after`,
        );
        expect(failures).toEqual([]);
        expect(after - before).toBeLessThan(ALLOWED_GROWTH_MB);
        expect(peak - before).toBeLessThan(ALLOWED_GROWTH_MB);
      } finally {
        agent.destroy();
      }
    },
    180_000,
  );
});
