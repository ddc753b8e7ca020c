/**
 * Issue 14 item 4: rate limits per client address and route family. The resolver counts in each process's
 * memory (its share of the limit), the registry in Redis (one count for every registry process); a flood is
 * answered 429 in the envelope with Retry-After, RateLimit and RateLimit-Policy; health checks, /metrics
 * and the curator token are never limited.
 */
import type { RequestListener } from 'node:http';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import request from 'supertest';
import { redisRateLimits } from '../../src/http/rate-limiter.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { acceptingChecks } from '../support/stand-in-checks.js';
import { startOwnRedis, type OwnRedis } from '../support/redis-server.js';
import { describeRequiring, redisServerBinary } from '../support/requirements.js';
import { waitFor } from '../support/wait.js';

const CURATOR_TOKEN = randomBytes(24).toString('hex');
const ID = '/taxonomy:9606';

const batchOf = (n: number) => ({ apiVersion: '1.0', payload: { compactIdentifiers: Array.from({ length: n }, () => 'taxonomy:9606') } });

function expectRefusal(res: request.Response, family: string, limit: number): void {
  expect(res.status).toBe(429);
  expect(res.headers['cache-control']).toBe('no-store');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers['ratelimit-policy']).toBe(`"${family}";q=${limit};w=60`);
  expect(res.headers.ratelimit).toBe(`"${family}";r=0;t=${retryAfter}`);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(JSON.parse(res.text)).toEqual({ apiVersion: '1.0', errorMessage: expect.stringMatching(/^Too many .* from your address: at most [\d,]+ a minute; /), payload: null });
}

describe('rate limits', () => {
  let t: AreaStack;
  beforeAll(async () => {
    t = await startStack('rate_limits', { dataset: 'built', env: { RATE_LIMITS: 'true', CURATOR_TOKEN } });
  });
  afterAll(() => t.close());

  const resolver = async (env: Record<string, string>): Promise<RequestListener> => (await t.resolverApp({ env })).koa.callback();

  describe('on the resolver (in memory, per process)', () => {
    it('answers a flood of resolutions 429 with Retry-After, RateLimit and RateLimit-Policy in the envelope', async () => {
      const app = await resolver({ RATE_LIMIT_RESOLUTION: '5' });
      for (let i = 0; i < 5; i++) expect((await request(app).get(ID)).status).toBe(200);
      const refused = await request(app).get(ID);
      expectRefusal(refused, 'resolution', 5);
      expect(JSON.parse(refused.text).errorMessage).toMatch(/^Too many resolutions from your address: at most 5 a minute/);
      // Redirects, MIR ids and HEAD count as resolutions too.
      expect((await request(app).get(ID).set('Accept', 'text/html')).status).toBe(429);
      expect((await request(app).get('/resolveMirId/MIR:00000006')).status).toBe(429);
      expect((await request(app).head(ID)).status).toBe(429);
    });

    it('never limits health checks, /metrics or a curator', async () => {
      const app = await resolver({ RATE_LIMIT_RESOLUTION: '2' });
      for (let i = 0; i < 4; i++) expect((await request(app).get('/health/live')).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await request(app).get('/health/ready')).status).toBe(200);
      for (let i = 0; i < 4; i++) expect((await request(app).get('/metrics')).status).not.toBe(429);
      for (let i = 0; i < 4; i++) {
        const curator = await request(app).get(ID).set('Authorization', `Bearer ${CURATOR_TOKEN}`);
        expect(curator.status).toBe(200);
        expect(curator.headers.ratelimit).toBeUndefined();
      }
      // The curator's requests were not counted; anyone else's are.
      expect((await request(app).get(ID)).status).toBe(200);
      expect((await request(app).get(ID)).status).toBe(200);
      expect((await request(app).get(ID)).status).toBe(429);
      // A wrong token is an ordinary client.
      expect((await request(app).get(ID).set('Authorization', 'Bearer not-the-curator-token-at-all-0123456789')).status).toBe(429);
      expect((await request(app).get('/health/live')).status).toBe(200);
    });

    it('counts a batch by its items, and refuses the batch that goes over', async () => {
      const app = await resolver({ RATE_LIMIT_BATCH: '10' });
      expect((await request(app).post('/resolve/batch').send(batchOf(6))).status).toBe(200);
      expect((await request(app).post('/reverse/batch').send({ apiVersion: '1.0', payload: { requests: [{ url: 'https://example.org/1' }] } })).status).toBe(200);
      expect((await request(app).post('/resolve/batch').send(batchOf(3))).status).toBe(200);
      const over = await request(app).post('/resolve/batch').send(batchOf(2));
      expectRefusal(over, 'batch', 10);
      expect(JSON.parse(over.text).errorMessage).toMatch(/^Too many batch items/);
      // The batch family does not touch the resolution family.
      expect((await request(app).get(ID)).status).toBe(200);
    });

    it('refuses a batch larger than the whole quota however fresh the client', async () => {
      const app = await resolver({ RATE_LIMIT_BATCH: '10' });
      expectRefusal(await request(app).post('/resolve/batch').send(batchOf(11)), 'batch', 10);
    });

    it('counts a batch or the insight API written in another case against its own family, as its route answers it', async () => {
      const app = await resolver({ RATE_LIMIT_BATCH: '10', RATE_LIMIT_DATASET: '1' });
      expectRefusal(await request(app).post('/RESOLVE/Batch').send(batchOf(11)), 'batch', 10);
      expectRefusal(await request(app).post('/reverse/batch/').send({ apiVersion: '1.0', payload: { requests: Array.from({ length: 11 }, () => ({ url: 'https://example.org/1' })) } }), 'batch', 10);
      expect((await request(app).options('/insightApi/get_all_home_urls')).status).not.toBe(429);
      expectRefusal(await request(app).options('/INSIGHTAPI/get_all_home_urls'), 'dataset', 1);
    });

    it('limits the single reverse lookups as their own family', async () => {
      const app = await resolver({ RATE_LIMIT_REVERSE: '2', RATE_LIMIT_RESOLUTION: '1' });
      const lookup = { apiVersion: '1.0', payload: { url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606' } };
      expect((await request(app).post('/reverse/byPrefix').send(lookup)).status).toBe(200);
      expect((await request(app).post('/reverse/bySimilarity').send(lookup)).status).toBe(200);
      expectRefusal(await request(app).post('/reverse/byPrefix').send(lookup), 'reverse', 2);
      expect((await request(app).get(ID)).status).toBe(200);
    });

    it('allows each of RESOLVER_INSTANCES processes its share of the limit, and advertises the whole', async () => {
      const app = await resolver({ RATE_LIMIT_RESOLUTION: '6', RESOLVER_INSTANCES: '2' });
      for (let i = 0; i < 3; i++) expect((await request(app).get(ID)).status).toBe(200);
      expectRefusal(await request(app).get(ID), 'resolution', 6);
    });

    it('counts each client behind a trusted proxy apart (TRUST_PROXY=1: the right-most X-Forwarded-For entry)', async () => {
      const app = await resolver({ RATE_LIMIT_RESOLUTION: '2', TRUST_PROXY: '1' });
      const from = (chain: string) => request(app).get(ID).set('X-Forwarded-For', chain);
      expect((await from('203.0.113.1')).status).toBe(200);
      expect((await from('203.0.113.1')).status).toBe(200);
      expect((await from('203.0.113.1')).status).toBe(429);
      // A left-most entry is what a client writes itself: it does not make another client.
      expect((await from('198.51.100.9, 203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(200);
    });

    it('limits nothing with RATE_LIMITS=false', async () => {
      const app = await resolver({ RATE_LIMITS: 'false', RATE_LIMIT_RESOLUTION: '1' });
      for (let i = 0; i < 4; i++) expect((await request(app).get(ID)).status).toBe(200);
    });
  });

  describe('on the registry (shared through Redis)', () => {
    // Behind one trusted proxy, each test is a client of its own (X-Forwarded-For), whatever the others counted.
    const registry = (env: Record<string, string>): RequestListener =>
      t.registryApp({ env: { TRUST_PROXY: '1', ...env }, registration: acceptingChecks }).callback();
    const get = (app: RequestListener, path: string, client: string) => request(app).get(path).set('X-Forwarded-For', client);
    const post = (app: RequestListener, path: string, client: string, body: unknown) => request(app).post(path).set('X-Forwarded-For', client).send(body as object);

    it('tells every browse answer its quota, and answers the request over it 429', async () => {
      const app = registry({ RATE_LIMIT_BROWSE: '3' });
      const client = '192.0.2.1';
      for (const remaining of [2, 1, 0]) {
        const res = await get(app, '/restApi/namespaces', client);
        expect(res.status).toBe(200);
        expect(res.headers['ratelimit-policy']).toBe('"browse";q=3;w=60');
        expect(res.headers.ratelimit).toMatch(new RegExp(`^"browse";r=${remaining};t=\\d+$`));
      }
      expectRefusal(await get(app, '/restApi/namespaces', client), 'browse', 3);
      expect((await get(app, '/health/live', client)).status).toBe(200);
      expect((await get(app, '/health/ready', client)).status).toBe(200);
      expect((await get(app, '/metrics', client)).status).not.toBe(429);
      const curator = await get(app, '/restApi/namespaces', client).set('Authorization', `Bearer ${CURATOR_TOKEN}`);
      expect(curator.status).toBe(200);
      expect(curator.headers.ratelimit).toBeUndefined();
      expect((await get(app, '/restApi/namespaces', '192.0.2.99')).status).toBe(200);
    });

    it('answers a wrong bearer token as the curator token is answered, without the quota fields, yet counts it', async () => {
      const app = registry({ RATE_LIMIT_BROWSE: '2' });
      const client = '192.0.2.8';
      const wrong = (path: string) => get(app, path, client).set('Authorization', 'Bearer not-the-curator-token-at-all-0123456789');
      for (let i = 0; i < 2; i++) {
        const res = await wrong('/restApi/namespaces');
        expect(res.status).toBe(200);
        // Present for a wrong token and absent for the right one, the quota would tell a guesser which it sent.
        expect(res.headers.ratelimit).toBeUndefined();
        expect(res.headers['ratelimit-policy']).toBeUndefined();
      }
      expectRefusal(await wrong('/restApi/namespaces'), 'browse', 2);
    });

    it('never limits a curator signed in at the desk, while the same address without the session is limited', async () => {
      const app = registry({ RATE_LIMIT_BROWSE: '2' });
      const client = '192.0.2.7';
      const html = 'text/html';
      const form = await get(app, '/curation/sign-in', client).set('Accept', html);
      expect(form.status).toBe(200);
      const formCookie = ((form.headers['set-cookie'] as unknown as string[]) ?? []).find((c) => c.startsWith('registry_csrf='))!.split(';')[0]!;
      const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)![1]!;
      const signedIn = await request(app)
        .post('/curation/sign-in')
        .set('X-Forwarded-For', client)
        .set('Accept', html)
        .set('Cookie', formCookie)
        .type('form')
        .send({ csrf, token: CURATOR_TOKEN, next: '/curation' });
      expect(signedIn.status).toBe(303);
      const session = ((signedIn.headers['set-cookie'] as unknown as string[]) ?? []).find((c) => c.startsWith('registry_curator='))!.split(';')[0]!;
      for (let i = 0; i < 4; i++) {
        const desk = await get(app, '/curation', client).set('Accept', html).set('Cookie', session);
        expect(desk.status).toBe(200);
        expect(desk.headers.ratelimit).toBeUndefined();
      }
      expect((await get(app, '/curation/sign-in', client).set('Accept', html)).status).toBe(200);
      expectRefusal(await get(app, '/curation/sign-in', client).set('Accept', html), 'browse', 2);
      // A cookie that names no session is no exemption.
      expectRefusal(await get(app, '/curation', client).set('Accept', html).set('Cookie', 'registry_curator=forged'), 'browse', 2);
    });

    it('shares one count between two registry processes', async () => {
      const env = { RATE_LIMIT_BROWSE: '4' };
      const first = registry(env);
      const second = registry(env);
      const client = '192.0.2.2';
      for (const app of [first, second, first, second]) expect((await get(app, '/restApi/namespaces', client)).status).toBe(200);
      expectRefusal(await get(first, '/restApi/namespaces', client), 'browse', 4);
      expectRefusal(await get(second, '/restApi/namespaces', client), 'browse', 4);
      expect(await t.redis.keys(`${t.config.QUEUE_PREFIX}:ratelimit:browse:${client}`)).toHaveLength(1);
    });

    it('limits validators, submissions and the dataset as families of their own', async () => {
      const app = registry({ RATE_LIMIT_VALIDATORS: '1', RATE_LIMIT_SUBMISSIONS: '1', RATE_LIMIT_DATASET: '1' });
      const client = '192.0.2.3';
      const validate = () => post(app, '/prefixRegistrationApi/validateRequestedPrefix', client, { apiVersion: '1.0', payload: { requestedPrefix: 'newprefix' } });
      expect((await validate()).status).not.toBe(429);
      expectRefusal(await validate(), 'validators', 1);
      const submit = () => post(app, '/prefixRegistrationApi/registerPrefix', client, { apiVersion: '1.0', payload: {} });
      expect((await submit()).status).not.toBe(429);
      expectRefusal(await submit(), 'submissions', 1);
      expect((await get(app, '/resolutionApi/getResolverDataset', client)).status).toBe(200);
      expectRefusal(await get(app, '/resolutionApi/getResolverDataset', client), 'dataset', 1);
      // Browsing is a family of its own.
      expect((await get(app, '/restApi/namespaces', client)).status).toBe(200);
    });

    it('counts the dataset family on its routes written in any case or with a trailing slash', async () => {
      const app = registry({ RATE_LIMIT_DATASET: '2', RATE_LIMIT_BROWSE: '100' });
      const client = '192.0.2.4';
      const first = await get(app, '/RESOLUTIONAPI/getResolverDataset', client);
      expect(first.status).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('"dataset";q=2;w=60');
      const second = await get(app, '/resolutionapi/export/', client);
      expect(second.status).not.toBe(429);
      expect(second.headers['ratelimit-policy']).toBe('"dataset";q=2;w=60');
      expectRefusal(await get(app, '/resolutionApi/DIFF', client), 'dataset', 2);
      expectRefusal(await get(app, '/RegistryInsightApi/getEbiSearchDataset', client), 'dataset', 2);
      // Browsing still has its own count, and odd-case health paths are not the health checks.
      const odd = await get(app, '/Health/ready', client);
      expect(odd.headers['ratelimit-policy']).toBe('"browse";q=100;w=60');
    });

    describeRequiring([redisServerBinary()], "while the registry's own Redis is paused, then gone", () => {
      let ownRedis: OwnRedis;
      let connection: Redis;
      let admin: Redis;
      beforeAll(async () => {
        ownRedis = await startOwnRedis();
        connection = createProducerRedis(ownRedis.url);
        connection.on('error', () => undefined);
        admin = new Redis(ownRedis.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
        admin.on('error', () => undefined);
        await admin.connect();
        await waitFor(async () => connection.status === 'ready', { timeoutMs: 10_000, what: "the registry's Redis connection" });
      });
      afterAll(async () => {
        // Paused, it would not stop on SIGTERM before the pause ends. Stopped first, so that the connections
        // close at once instead of waiting for a goodbye from a paused server.
        await ownRedis.stop('SIGKILL');
        connection.disconnect();
        admin.disconnect();
        await ownRedis.destroy();
      });

      /** curie_rate_limit_fallback_total of the browse family, as the registry's /metrics tells it. */
      const browseFallbacks = async (app: RequestListener): Promise<number> => {
        const scraped = await request(app).get('/metrics');
        expect(scraped.status).toBe(200);
        const sample = /^curie_rate_limit_fallback_total\{family="browse"\} (\d+)$/m.exec(scraped.text);
        expect(sample).not.toBeNull();
        return Number(sample![1]);
      };

      it('keeps answering, counting in memory, and counts each such request in curie_rate_limit_fallback_total', async () => {
        const app = t.registryApp({ env: { TRUST_PROXY: '1', RATE_LIMIT_BROWSE: '100' }, redis: connection }).callback();
        const client = '192.0.2.5';
        expect((await get(app, '/restApi/namespaces', client)).status).toBe(200);
        expect(await browseFallbacks(app)).toBe(0);
        // Redis holds every command (as it seems to a process whose event loop was blocked): the count's answer comes too late.
        await admin.call('CLIENT', 'PAUSE', '60000', 'ALL');
        const late = await get(app, '/restApi/namespaces', client);
        expect(late.status).toBe(200);
        expect(late.headers['ratelimit-policy']).toBe('"browse";q=100;w=60');
        // /metrics renders at most once a second: the count shows in a later scrape.
        await waitFor(async () => (await browseFallbacks(app)) === 1, { timeoutMs: 10_000, what: 'one fallback in /metrics' });
        // Redis gone: refused at once, counted in memory all the same.
        await ownRedis.stop('SIGKILL');
        await waitFor(async () => connection.status !== 'ready', { timeoutMs: 10_000, what: 'the connection noticing Redis is gone' });
        expect((await get(app, '/restApi/namespaces', client)).status).toBe(200);
        await waitFor(async () => (await browseFallbacks(app)) === 2, { timeoutMs: 10_000, what: 'two fallbacks in /metrics' });
      });
    });

    it('keeps limiting in memory, and answering, while Redis cannot be reached', async () => {
      // Nothing listens on port 1 of the loopback: the connection is refused at once, again and again.
      const unreachable = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
      unreachable.on('error', () => undefined);
      const errors: unknown[] = [];
      try {
        const limits = redisRateLimits({
          config: { ...t.config, RATE_LIMIT_BROWSE: 2 },
          families: ['browse'],
          redis: unreachable,
          keyPrefix: 'unreachable',
          onError: (error) => errors.push(error),
        });
        const browse = limits.families.browse!;
        expect((await browse.take('192.0.2.1')).allowed).toBe(true);
        expect((await browse.take('192.0.2.1')).allowed).toBe(true);
        const third = await browse.take('192.0.2.1');
        expect(third.allowed).toBe(false);
        expect(third.resetSeconds).toBeGreaterThan(0);
        expect((await browse.take('192.0.2.2')).allowed).toBe(true);
      } finally {
        unreachable.disconnect();
      }
    });
  });
});
