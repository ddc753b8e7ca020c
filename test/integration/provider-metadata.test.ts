/**
 * Provider metadata (issue 25, item 3) the whole way through: the resolver area's /metadataApi routes in this
 * process, a compiled worker process (npm test builds first) fetching fixture provider pages on 127.0.0.1
 * (URL_CHECK_ALLOW_PRIVATE_NETWORKS on in its settings, as the link-check tests do), and a second worker under
 * another queue prefix with the switch off, whose guard refuses the loopback address.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import type Koa from 'koa';
import request from 'supertest';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { queueNames } from '../../src/queue/queues.js';
import { fixtureNamespace } from '../factories/link-check.factory.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';

const LONG = 120_000;

interface PageFixture {
  url: (path: string) => string;
  hits: (path: string) => number;
  /** Lets the held /slow pages answer. */
  releaseSlow: () => void;
  close: () => Promise<void>;
}

const page = (head: string, body = '<p>Fixture page</p>') => `<!doctype html><html lang="en"><head>${head}</head><body>${body}</body></html>`;

/** Provider pages: with JSON-LD, with Open Graph only, with a bare title, with nothing, gone, and held. */
async function startPages(): Promise<PageFixture> {
  const hits = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  let release!: () => void;
  const slowReleased = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const [, kind, id = ''] = path.split('/');
    const html = (text: string) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(text);
    };
    if (kind === 'jsonld') {
      const dataset = { '@context': 'https://schema.org', '@type': 'Dataset', name: `Record ${id}`, identifier: id };
      return html(
        page(
          `<title>Record ${id} | Fixture DB</title><meta property="og:title" content="Record ${id}">` +
            `<meta property="og:description" content="All about record ${id}."><meta property="og:image" content="/images/${id}.png">` +
            `<script type="application/ld+json">${JSON.stringify(dataset)}</script>`,
        ),
      );
    }
    if (kind === 'og') {
      return html(
        page(
          `<meta property="og:title" content="Open Graph ${id}"><meta property="og:description" content="Described by Open Graph.">` +
            `<meta property="og:site_name" content="Fixture OG"><meta property="og:type" content="website">`,
        ),
      );
    }
    if (kind === 'bare') return html(page(`<title>Bare ${id}</title>`));
    if (kind === 'empty') return html('<html><body>nothing to see</body></html>');
    if (kind === 'slow') return void slowReleased.then(() => html(page(`<title>Slow ${id}</title>`)));
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<title>Not here</title>');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hits: (path) => hits.get(path) ?? 0,
    releaseSlow: release,
    close: async () => {
      release();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('provider metadata through a worker process', () => {
  let t: AreaStack;
  let pages: PageFixture;
  let resolver: Koa;
  /** The same resolver with a wait too short for a held page. */
  let impatient: Koa;
  /** A resolver and worker of another queue prefix, whose worker keeps the private-address guard on. */
  let guarded: Koa;
  const guardedPrefix = `test-metadata-guarded-${randomBytes(4).toString('hex')}`;
  const workers: Spawned[] = [];

  const provider = (code: string, path: string) => ({
    code,
    urlPattern: pages.url(`${path}/{$id}`),
    resourceHomeUrl: pages.url(`${path}/home`),
  });

  beforeAll(async () => {
    pages = await startPages();
    t = await startStack('provider-metadata', {
      data: {
        records: [
          fixtureNamespace('mdjson', [provider('p0', '/jsonld')]),
          fixtureNamespace('mdog', [provider('p0', '/og')]),
          fixtureNamespace('mdpick', [provider('first', '/bare'), provider('second', '/og')]),
          fixtureNamespace('mdempty', [provider('p0', '/empty')]),
          fixtureNamespace('mdgone', [provider('p0', '/gone')]),
          fixtureNamespace('mdslow', [provider('p0', '/slow')]),
          { ...fixtureNamespace('mdnum', [provider('p0', '/jsonld')]), pattern: '^\\d+$' },
        ],
      },
    });
    // Generous: a busy machine may take seconds to hand a job to the worker; the 202 case has its own resolver.
    resolver = (await t.resolverApp({ env: { METADATA_WAIT_MS: '30000' } })).koa;
    impatient = (await t.resolverApp({ env: { METADATA_WAIT_MS: '300' } })).koa;
    guarded = (await t.resolverApp({ env: { METADATA_WAIT_MS: '30000', QUEUE_PREFIX: guardedPrefix } })).koa;
    workers.push(spawnWorker(t, { URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true', METADATA_HOST_DELAY_MS: '0', METADATA_HOST_CONCURRENCY: '10' }));
    workers.push(spawnWorker(t, { QUEUE_PREFIX: guardedPrefix }));
    await waitForQueueWorkers(queueNames.metadata, 1, { redisUrl: TEST_REDIS_URL, prefix: t.config.QUEUE_PREFIX });
    await waitForQueueWorkers(queueNames.metadata, 1, { redisUrl: TEST_REDIS_URL, prefix: guardedPrefix });
  }, LONG);

  afterAll(async () => {
    for (const worker of workers) await stopProcess(worker);
    if (t) await deleteQueueKeys(t.redis, guardedPrefix);
    await t?.close();
    await pages?.close();
  }, LONG);

  const get = (app: Koa, path: string) => request(app.callback()).get(path);

  it('answers the JSON-LD and the summary of the page a compact identifier resolves to', async () => {
    const res = await get(resolver, '/metadataApi/getMetadataFor/mdjson:42');
    expect(res.status).toBe(200);
    expect(res.body.errorMessage).toBeNull();
    expect(res.body.payload.metadata).toEqual([{ '@context': 'https://schema.org', '@type': 'Dataset', name: 'Record 42', identifier: '42' }]);
    expect(res.body.payload.page).toMatchObject({
      title: 'Record 42',
      description: 'All about record 42.',
      image: pages.url('/images/42.png'),
    });
    expect(res.body.payload.url).toBe(pages.url('/jsonld/42'));
    expect(res.body.payload.resolvedFrom).toEqual({ compactIdentifier: 'mdjson:42', namespacePrefix: 'mdjson', providerCode: 'p0', resourceId: expect.any(Number) });
    expect(new Date(res.body.payload.fetchedAt).getTime()).not.toBeNaN();
    expect(res.headers.age).toBeDefined();
  }, LONG);

  it('serves a second request from the cache: the provider page is fetched once, and the answer says how old it is', async () => {
    const first = await get(resolver, '/metadataApi/getMetadataFor/mdjson:cached');
    expect(first.status).toBe(200);
    const second = await get(resolver, '/metadataApi/getMetadataFor/mdjson:cached');
    expect(second.status).toBe(200);
    expect(second.body.payload.metadata).toEqual(first.body.payload.metadata);
    expect(second.body.payload.fetchedAt).toBe(first.body.payload.fetchedAt);
    expect(Number(second.headers.age)).toBe(second.body.payload.ageSeconds);
    // The URL form of the same page shares the cached answer.
    const byUrl = await get(resolver, `/metadataApi/getMetadataForUrl?url=${encodeURIComponent(pages.url('/jsonld/cached'))}`);
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.payload.fetchedAt).toBe(first.body.payload.fetchedAt);
    expect(pages.hits('/jsonld/cached')).toBe(1);
  }, LONG);

  it('reads a page with Open Graph only, and one with a bare title', async () => {
    const og = await get(resolver, '/metadataApi/getMetadataFor/mdog:7');
    expect(og.status).toBe(200);
    expect(og.body.payload.metadata).toEqual([]);
    expect(og.body.payload.page).toMatchObject({ title: 'Open Graph 7', description: 'Described by Open Graph.', siteName: 'Fixture OG', type: 'website' });

    const bare = await get(resolver, `/metadataApi/getMetadataForUrl?url=${encodeURIComponent(pages.url('/bare/x'))}`);
    expect(bare.status).toBe(200);
    expect(bare.body.payload.metadata).toEqual([]);
    expect(bare.body.payload.page).toMatchObject({ title: 'Bare x', description: null, image: null });
  }, LONG);

  it('takes the URL as identifiers.org posts it, in the envelope', async () => {
    const url = pages.url('/og/posted');
    const res = await request(resolver.callback()).post('/metadataApi/getMetadataForUrl').send({ apiVersion: '1.0', payload: { url } });
    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({ metadata: [], url, page: { title: 'Open Graph posted' } });

    const refused = await request(resolver.callback()).post('/metadataApi/getMetadataForUrl').send({ apiVersion: '1.0', payload: {} });
    expect(refused.status).toBe(400);
    expect(refused.body.errorMessage).toBe('Invalid payload: give the page\'s address as {"apiVersion": "1.0", "payload": {"url": "https://..."}}');
  }, LONG);

  it('uses the provider the redirect would use, or the one named as provider/prefix:lui', async () => {
    const best = await get(resolver, '/metadataApi/getMetadataFor/mdpick:1');
    expect(best.status).toBe(200);
    expect(best.body.payload.resolvedFrom.providerCode).toBe('first');
    expect(best.body.payload.page.title).toBe('Bare 1');

    const chosen = await get(resolver, '/metadataApi/getMetadataFor/second/mdpick:1');
    expect(chosen.status).toBe(200);
    expect(chosen.body.payload.resolvedFrom.providerCode).toBe('second');
    expect(chosen.body.payload.page.title).toBe('Open Graph 1');
  }, LONG);

  it('answers failures of the page with a clear status: no metadata 404, an error page 502', async () => {
    const empty = await get(resolver, '/metadataApi/getMetadataFor/mdempty:1');
    expect(empty.status).toBe(404);
    expect(empty.body.errorMessage).toBe(`No metadata found for URL ${pages.url('/empty/1')}`);
    expect(empty.body.payload.metadata).toBeNull();

    const gone = await get(resolver, '/metadataApi/getMetadataFor/mdgone:1');
    expect(gone.status).toBe(502);
    expect(gone.body.errorMessage).toBe(`The page at ${pages.url('/gone/1')} answered 404 NOT_FOUND`);
  }, LONG);

  it('answers 202 with Retry-After while the page is being fetched, and the page once it is', async () => {
    const pending = await get(impatient, '/metadataApi/getMetadataFor/mdslow:1');
    expect(pending.status).toBe(202);
    expect(pending.headers['retry-after']).toBe('2');
    expect(pending.body.errorMessage).toBe(`The page at ${pages.url('/slow/1')} is being fetched; ask again in a few seconds`);
    pages.releaseSlow();
    // The fetch went on: the patient resolver gets its answer, from the same job.
    const done = await get(resolver, '/metadataApi/getMetadataFor/mdslow:1');
    expect(done.status).toBe(200);
    expect(done.body.payload.page.title).toBe('Slow 1');
    expect(pages.hits('/slow/1')).toBe(1);
  }, LONG);

  it('refuses a private address where the guard is on (422), without contacting it', async () => {
    const url = pages.url('/og/private');
    const res = await get(guarded, `/metadataApi/getMetadataForUrl?url=${encodeURIComponent(url)}`);
    expect(res.status).toBe(422);
    expect(res.body.errorMessage).toBe(`The URL ${url} is not fetched: it points to a private or loopback address`);
    expect(pages.hits('/og/private')).toBe(0);
  }, LONG);

  it('answers 404 for an unknown namespace, and what the resolver answers for identifiers it cannot resolve', async () => {
    const unknown = await get(resolver, '/metadataApi/getMetadataFor/nosuchprefix:1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorMessage).toBe("FAILED to fetch metadata for Compact ID 'nosuchprefix:1', because the namespace 'nosuchprefix' is not in the registry");

    const mismatch = await get(resolver, '/metadataApi/getMetadataFor/mdnum:abc');
    const directMismatch = await get(resolver, '/mdnum:abc');
    expect(mismatch.status).toBe(400);
    expect(mismatch.status).toBe(directMismatch.status);
    expect(mismatch.body.errorMessage).toBe(`FAILED to fetch metadata for Compact ID 'mdnum:abc', because ${directMismatch.body.errorMessage}`);

    const bare = await get(resolver, '/metadataApi/getMetadataFor/mdjson');
    expect(bare.status).toBe(400);
    expect(bare.body.errorMessage).toBe("FAILED to fetch metadata for Compact ID 'mdjson', because 'mdjson' names a namespace, not an entity: give prefix:accession");
    expect(pages.hits('/jsonld/abc')).toBe(0);
  }, LONG);

  it.each([
    ['/metadataApi/getMetadataForUrl', 400, "Give the page's address: /metadataApi/getMetadataForUrl?url=https://..."],
    ['/metadataApi/getMetadataForUrl?url=ftp%3A%2F%2Fexample.org%2Fx', 400, 'The URL ftp://example.org/x is not fetched: only http and https URLs are checked'],
    ['/metadataApi/getMetadataForUrl?url=http%3A%2F%2Fuser%3Apw%40example.org%2F', 400, 'The URL http://user:pw@example.org/ is not fetched: credentials in URLs are not allowed'],
    ['/metadataApi/getMetadataForUrl?url=a&url=b', 400, 'Give one url parameter, not several'],
    ['/metadataApi/getMetadataFor/', 400, 'Name a compact identifier: /metadataApi/getMetadataFor/{prefix:accession}, or {provider/prefix:accession}'],
    ['/metadataApi/somethingElse', 404, 'No such metadata endpoint: /metadataApi/somethingElse; use /metadataApi/getMetadataFor/{compactId} or /metadataApi/getMetadataForUrl?url='],
  ])('refuses bad input %s with %i', async (path, status, message) => {
    const res = await get(resolver, path);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: message, payload: { metadata: null } });
  });
});
