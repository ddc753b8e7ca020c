/**
 * Live URL checks against local fixture servers on 127.0.0.1, so URL_CHECK_ALLOW_PRIVATE_NETWORKS is on in
 * this file (and only here and in url-check-faults; ssrf.test.ts keeps it off). First the fetcher and the
 * verdict messages (spec §2.4), then the whole way through the queue: the API side's createQueuedUrlCheck and
 * a worker process started from the compiled entry point (npm test builds first).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config.js';
import { fetchForCheck, BROWSER_ACCEPT, MAX_REQUESTS_PER_HOST, type FetchForCheckOptions } from '../../src/lib/http-client.js';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { CheckStillRunningError, CheckUnavailableError } from '../../src/registry/model/registration-checks.js';
import { createQueuedUrlCheck, type QueuedUrlCheck } from '../../src/registry/registration/url-check/queued-url-check.js';
import { urlCheckHash, urlCheckJobId, urlVerdictKey } from '../../src/queue/url-check.queue.js';
import { verdictFor } from '../../workers/url-check/url-verdict.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { processUrlCheck } from '../../workers/url-check/url-check.processor.js';
import { URL_CHECK_MAX_BODY_BYTES, URL_CHECK_MAX_REDIRECTS } from '../../workers/url-check/url-check.worker.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { freePort, stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;

// This file's settings: private networks on (the fixtures are on loopback), a short timeout for the slow cases.
const config = loadConfig({ URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true', URL_CHECK_TIMEOUT_MS: '500' });

const options = (extra: Partial<FetchForCheckOptions> = {}): FetchForCheckOptions => ({
  allowPrivateNetworks: config.URL_CHECK_ALLOW_PRIVATE_NETWORKS,
  timeoutMs: config.URL_CHECK_TIMEOUT_MS,
  maxRedirects: URL_CHECK_MAX_REDIRECTS,
  maxBodyBytes: URL_CHECK_MAX_BODY_BYTES,
  userAgent: 'url-check-test',
  ...extra,
});

interface Fixture {
  url: (p: string) => string;
  port: number;
  /** Requests per path. */
  hits: Map<string, number>;
  headers: http.IncomingHttpHeaders[];
  inFlight: number;
  maxInFlight: number;
  /** Connections of /huge that the client dropped. */
  hugeClosed: number;
  close: () => Promise<void>;
}

async function startFixture(): Promise<Fixture> {
  const sockets = new Set<net.Socket>();
  const fixture: Fixture = {
    url: () => '',
    port: 0,
    hits: new Map(),
    headers: [],
    inFlight: 0,
    maxInFlight: 0,
    hugeClosed: 0,
    close: async () => undefined,
  };
  const server = http.createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://fixture');
    fixture.hits.set(pathname, (fixture.hits.get(pathname) ?? 0) + 1);
    fixture.headers.push(req.headers);
    const [, kind, arg] = pathname.split('/');
    const status = (code: number) => {
      res.writeHead(code, { 'content-type': 'text/plain' });
      res.end(`status ${code}`);
    };
    switch (kind) {
      case 'status':
        return status(Number(arg));
      case 'moved':
        res.writeHead(301, { location: '/status/200' });
        return res.end();
      case 'chain': {
        const left = Number(arg);
        res.writeHead(302, { location: left > 0 ? `/chain/${left - 1}` : '/status/200' });
        return res.end();
      }
      case 'loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case 'hang':
        return; // never answers; closed with the server
      case 'trickle':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('a');
        return; // headers and a byte, then nothing
      case 'huge': {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => (fixture.hugeClosed += 1));
        return pump();
      }
      case 'delayed': {
        fixture.inFlight += 1;
        fixture.maxInFlight = Math.max(fixture.maxInFlight, fixture.inFlight);
        setTimeout(() => {
          fixture.inFlight -= 1;
          status(200);
        }, Number(arg));
        return;
      }
      default:
        return status(Number(kind) || 200);
    }
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fixture.port = (server.address() as net.AddressInfo).port;
  fixture.url = (p: string) => `http://127.0.0.1:${fixture.port}${p}`;
  fixture.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return fixture;
}

const check = async (url: string, isProtected = false, extra: Partial<FetchForCheckOptions> = {}) =>
  verdictFor(url, isProtected, await fetchForCheck(url, options(extra)), config.URL_CHECK_TIMEOUT_MS);

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture();
});
afterAll(async () => {
  await fixture.close();
});

describe('the fetcher and its verdicts', () => {
  it('runs with private networks allowed, as set for this file only', () => {
    expect(config.URL_CHECK_ALLOW_PRIVATE_NETWORKS).toBe(true);
  });

  it('accepts a 200', async () => {
    expect(await check(fixture.url('/status/200'))).toEqual({ ok: true });
  });

  it('accepts a 204 and a 3xx the client stops on', async () => {
    expect(await check(fixture.url('/status/204'))).toEqual({ ok: true });
    expect(await check(fixture.url('/status/304'))).toEqual({ ok: true });
  });

  it('fails a 404 with the status, its Spring name and the URL asked for', async () => {
    const url = fixture.url('/status/404');
    expect(await check(url)).toEqual({ ok: false, message: `Status 404 NOT_FOUND is not acceptable for URL ${url}` });
  });

  it.each([
    [500, '500 INTERNAL_SERVER_ERROR'],
    [418, '418 I_AM_A_TEAPOT'],
    [413, '413 PAYLOAD_TOO_LARGE'],
    [520, '520'],
    [599, '599'],
  ])('names status %i as "%s", a code Spring does not know alone', async (code, shown) => {
    const url = fixture.url(`/status/${code}`);
    expect(await check(url)).toEqual({ ok: false, message: `Status ${shown} is not acceptable for URL ${url}` });
  });

  it('follows a redirect to a working page', async () => {
    const result = await fetchForCheck(fixture.url('/moved'), options());
    expect(result).toMatchObject({ ok: true, status: 200, finalUrl: fixture.url('/status/200') });
    expect(await check(fixture.url('/moved'))).toEqual({ ok: true });
  });

  it('follows 5 redirects, not 6', async () => {
    expect(await check(fixture.url('/chain/4'))).toEqual({ ok: true }); // 5 redirects
    expect(await check(fixture.url('/chain/5'))).toEqual({ ok: false, message: 'Error trying to connect to server: Too many redirects' });
  });

  it('gives up on a redirect loop', async () => {
    const before = fixture.hits.get('/loop') ?? 0;
    expect(await check(fixture.url('/loop'))).toEqual({ ok: false, message: 'Error trying to connect to server: Too many redirects' });
    expect((fixture.hits.get('/loop') ?? 0) - before).toBe(URL_CHECK_MAX_REDIRECTS + 1);
  });

  // /hang never answers and /trickle never ends: without the bound these checks would not settle before the
  // test's own deadline, so the verdict alone shows the bound applied (how long it took is no test's business).
  it('gives up on a server that does not answer, within the time bound', async () => {
    expect(await check(fixture.url('/hang'))).toEqual({ ok: false, message: 'The server did not answer within 0.5 seconds' });
  });

  it('bounds the body read by time too', async () => {
    expect(await check(fixture.url('/trickle'))).toEqual({ ok: false, message: 'The server did not answer within 0.5 seconds' });
  });

  it('says 10 seconds with the default timeout', () => {
    expect(verdictFor('http://x.example/', false, { ok: false, failure: { kind: 'timeout' } }, loadConfig({}).URL_CHECK_TIMEOUT_MS)).toEqual({
      ok: false,
      message: 'The server did not answer within 10 seconds',
    });
  });

  it('stops reading an endless body after 1 MiB and judges by the status', async () => {
    // The body never ends: only the size cap, not the 10 s timeout, can give this verdict (ok, truncated).
    const result = await fetchForCheck(fixture.url('/huge'), options({ timeoutMs: 10_000 }));

    expect(result).toMatchObject({ ok: true, status: 200, bodyTruncated: true });
    expect(result.ok && result.bodyBytes).toBeGreaterThan(URL_CHECK_MAX_BODY_BYTES);
    expect(result.ok && result.bodyBytes).toBeLessThan(URL_CHECK_MAX_BODY_BYTES + 1024 * 1024);
    await waitFor(async () => fixture.hugeClosed > 0, { timeoutMs: 5000, what: 'the fixture seeing the connection dropped' });
  });

  it('fails a 401 for a public resource and accepts it for a protected one', async () => {
    const url = fixture.url('/status/401');
    expect(await check(url, false)).toEqual({ ok: false, message: `Status 401 UNAUTHORIZED is not acceptable for URL ${url}` });
    expect(await check(url, true)).toEqual({ ok: true });
  });

  it.each([403, 407, 451])('accepts %i for a protected resource only', async (code) => {
    const url = fixture.url(`/status/${code}`);
    expect(await check(url, true)).toEqual({ ok: true });
    expect((await check(url, false)).ok).toBe(false);
  });

  it('fails other errors of a protected resource', async () => {
    const url = fixture.url('/status/404');
    expect(await check(url, true)).toEqual({ ok: false, message: `Status 404 NOT_FOUND is not acceptable for URL ${url}` });
  });

  it('says it could not connect when nothing listens', async () => {
    const url = `http://127.0.0.1:${await freePort()}/`;
    expect(await check(url)).toEqual({ ok: false, message: 'Failed to connect to server' });
  });

  it('says so when the TLS handshake fails', async () => {
    expect(await check(`https://127.0.0.1:${fixture.port}/status/200`)).toEqual({
      ok: false,
      message: 'Failed to connect to server due to SSL error',
    });
  });

  it('sends a browser-like Accept and the service user agent', async () => {
    fixture.headers.length = 0;
    await fetchForCheck(fixture.url('/status/200'), options());
    expect(fixture.headers[0]).toMatchObject({ accept: BROWSER_ACCEPT, 'user-agent': 'url-check-test' });
  });

  it('still refuses 0.0.0.0 with the switch on', async () => {
    const url = `http://0.0.0.0:${fixture.port}/`;
    expect(await check(url)).toEqual({ ok: false, message: `URL ${url} is not allowed: it points to a private or loopback address` });
  });

  it(`sends at most ${MAX_REQUESTS_PER_HOST} requests at a time to one host`, async () => {
    fixture.maxInFlight = 0;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => fetchForCheck(fixture.url(`/delayed/200?n=${i}`), options({ timeoutMs: 5000 }))),
    );

    expect(results.every((r) => r.ok && r.status === 200)).toBe(true);
    // "At most", the rule: how many overlap below the cap depends on the machine's timing.
    expect(fixture.maxInFlight).toBeLessThanOrEqual(MAX_REQUESTS_PER_HOST);
  });
});

describe('through the queue, with a worker process', () => {
  const CACHE_SECONDS = 3;
  let t: AreaStack;
  let prefix: string;
  let worker: Spawned;
  let producerRedis: Redis;
  let inspector: Redis;
  let checks: QueuedUrlCheck;
  const extraPrefixes: string[] = [];
  const extras: { close: () => Promise<void> }[] = [];

  const hits = (p: string) => fixture.hits.get(p) ?? 0;

  beforeAll(async () => {
    t = await startStack('url_check', { data: 'none' });
    producerRedis = t.redis;
    prefix = t.config.QUEUE_PREFIX;
    worker = spawnWorker(t, { URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true', URL_CHECK_CACHE_SECONDS: String(CACHE_SECONDS) });
    await waitForQueueWorkers(queueNames.urlCheck, 1, { redisUrl: TEST_REDIS_URL, prefix });
    inspector = createWorkerRedis(TEST_REDIS_URL);
    checks = createQueuedUrlCheck({ connection: producerRedis, prefix, waitMs: 15_000, cacheSeconds: CACHE_SECONDS });
  }, LONG);

  afterAll(async () => {
    await checks.close();
    for (const extra of extras) await extra.close();
    await stopProcess(worker);
    for (const p of extraPrefixes) await deleteQueueKeys(inspector, p);
    inspector.disconnect();
    await t.close();
  }, LONG);

  it('processes a job as a plain function: the verdict is cached for the producers, the same each time', async () => {
    const processorPrefix = `test-url-check-processor-${randomBytes(4).toString('hex')}`;
    extraPrefixes.push(processorPrefix);
    const url = 'http://example.invalid/missing';
    const fetched: string[] = [];
    const deps = {
      fetch: (u: string) => {
        fetched.push(u);
        return Promise.resolve({ ok: true as const, status: 404, finalUrl: u, bodyBytes: 0, bodyTruncated: false });
      },
      redis: inspector,
      prefix: processorPrefix,
      cacheSeconds: 60,
      timeoutMs: 10_000,
    };
    const job = { data: { url, isProtected: false } };

    const first = await processUrlCheck(deps, job);
    const second = await processUrlCheck(deps, job);

    expect(first).toEqual({ ok: false, message: `Status 404 NOT_FOUND is not acceptable for URL ${url}` });
    expect(second).toEqual(first);
    expect(fetched).toEqual([url, url]);
    const key = urlVerdictKey(processorPrefix, urlCheckHash(url, false));
    expect(JSON.parse((await inspector.get(key)) ?? 'null')).toEqual(first);
    expect(await inspector.ttl(key)).toBeGreaterThan(50);
  });

  it('answers null for a working URL and the message for a broken one', async () => {
    const missing = fixture.url('/status/404?q=1');
    expect(await checks.urlCheck(fixture.url('/status/200?q=1'), { isProtected: false })).toBeNull();
    expect(await checks.urlCheck(missing, { isProtected: false })).toBe(`Status 404 NOT_FOUND is not acceptable for URL ${missing}`);
  });

  it('answers a 401 according to isProtected, as two separate checks', async () => {
    const url = fixture.url('/status/401?q=protected');
    const before = hits('/status/401');

    expect(await checks.urlCheck(url, { isProtected: false })).toBe(`Status 401 UNAUTHORIZED is not acceptable for URL ${url}`);
    expect(await checks.urlCheck(url, { isProtected: true })).toBeNull();
    expect(hits('/status/401') - before).toBe(2);
  });

  it('answers a repeated check from the cache without a new job, and fetches again after it expires', async () => {
    const url = fixture.url('/cached');
    const jobId = urlCheckJobId(urlCheckHash(url, false));

    expect(await checks.urlCheck(url, { isProtected: false })).toBeNull();
    const queue = createQueue(queueNames.urlCheck, inspector, prefix);
    try {
      const first = await queue.getJob(jobId);
      expect(first?.finishedOn).toBeDefined();

      expect(await checks.urlCheck(url, { isProtected: false })).toBeNull();
      expect(hits('/cached')).toBe(1);
      expect((await queue.getJob(jobId))?.timestamp).toBe(first?.timestamp);

      // The cache's lifetime is the subject here, so time must pass: wait for its observable end (the verdict
      // gone from Redis and the job older than the lifetime the producer judges it by) rather than a fixed sleep.
      const verdictKey = urlVerdictKey(prefix, urlCheckHash(url, false));
      await waitFor(async () => (await inspector.exists(verdictKey)) === 0 && Date.now() - first!.finishedOn! >= CACHE_SECONDS * 1000, {
        timeoutMs: CACHE_SECONDS * 1000 + 10_000,
        what: 'the cached verdict expiring',
      });
      expect(await checks.urlCheck(url, { isProtected: false })).toBeNull();
      expect(hits('/cached')).toBe(2);
    } finally {
      await queue.close();
    }
  }, LONG);

  it('shares one job among identical concurrent checks', async () => {
    const url = fixture.url('/delayed/600');
    const before = hits('/delayed/600');

    const answers = await Promise.all(Array.from({ length: 5 }, () => checks.urlCheck(url, { isProtected: false })));

    expect(answers).toEqual([null, null, null, null, null]);
    expect(hits('/delayed/600') - before).toBe(1);
  });

  it('rejects with CheckStillRunningError when no worker answers within the wait bound', async () => {
    const lonelyPrefix = `test-url-check-idle-${randomBytes(4).toString('hex')}`;
    extraPrefixes.push(lonelyPrefix);
    const idle = createQueuedUrlCheck({ connection: producerRedis, prefix: lonelyPrefix, waitMs: 300, cacheSeconds: CACHE_SECONDS });
    extras.push(idle);

    // No worker serves this prefix: only the 300 ms wait bound can end the wait, so the error shows it applied.
    await expect(idle.urlCheck(fixture.url('/status/200?q=idle'), { isProtected: false })).rejects.toBeInstanceOf(CheckStillRunningError);
    // The job stays queued: a retry later finds the worker's verdict.
    const queue = createQueue(queueNames.urlCheck, inspector, lonelyPrefix);
    try {
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
    } finally {
      await queue.close();
    }
  });

  it('rejects with CheckUnavailableError at once when Redis cannot be reached', async () => {
    const unreachable = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      disconnectTimeout: 10,
    });
    unreachable.on('error', () => undefined);
    const down = createQueuedUrlCheck({ connection: unreachable, prefix, waitMs: 10_000, cacheSeconds: CACHE_SECONDS });
    try {
      // "At once" is the error's kind: waiting out the 10 s bound would end in CheckStillRunningError instead.
      await expect(down.urlCheck(fixture.url('/status/200'), { isProtected: false })).rejects.toBeInstanceOf(CheckUnavailableError);
    } finally {
      await down.close();
      unreachable.disconnect();
    }
  });
});
