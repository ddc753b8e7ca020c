/**
 * Prometheus metrics as operators scrape them: the compiled resolver, registry and worker processes (npm test
 * builds first) on one database and Redis, /metrics read with a parser that is not prom-client's. The figures
 * move when traffic and jobs move; METRICS_TOKEN guards them; a metrics port of its own keeps them off the
 * area's port.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, queueNames } from '../../src/queue/queues.js';
import { LINK_CHECK_JOB_NAME } from '../../src/queue/link-check.queue.js';
import { URL_CHECK_JOB_NAME } from '../../src/queue/url-check.queue.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { freePort, stopProcess, type Spawned } from '../support/processes.js';
import { ScrapedMetrics } from '../support/prometheus-text.js';
import { spawnWorker, startAreaProcess, type AreaProcess } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;
const TOKEN = randomBytes(16).toString('hex');
const bearer = { Authorization: `Bearer ${TOKEN}` };

async function scrape(url: string, headers: Record<string, string> = {}): Promise<ScrapedMetrics> {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return ScrapedMetrics.parse(await res.text());
}

/** Waits until a scrape of `url` satisfies `seen`, and returns that scrape. */
async function scrapeUntil(url: string, seen: (m: ScrapedMetrics) => boolean, what: string, headers: Record<string, string> = {}): Promise<ScrapedMetrics> {
  return waitFor(
    async () => {
      const metrics = await scrape(url, headers);
      return seen(metrics) ? metrics : undefined;
    },
    { timeoutMs: 30_000, what, everyMs: 200 },
  );
}

describe('/metrics of the resolver, registry and worker processes', () => {
  let t: AreaStack;
  let resolver: AreaProcess;
  let registry: AreaProcess;
  let worker: Spawned;
  let workerMetrics: string;
  let connection: Redis;
  let usageRollup: Queue;
  let site: http.Server;
  let siteUrl: string;

  beforeAll(async () => {
    t = await startStack('metrics');
    site = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('fine'));
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    const workerPort = await freePort();
    workerMetrics = `http://127.0.0.1:${workerPort}/metrics`;
    [resolver, registry] = await Promise.all([startAreaProcess('resolver', t), startAreaProcess('registry', t)]);
    worker = spawnWorker(t, { HOST: '127.0.0.1', WORKER_METRICS_PORT: String(workerPort), METRICS_TOKEN: TOKEN, URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true' });
    await waitFor(async () => (await fetch(workerMetrics, { headers: bearer })).status === 200, { timeoutMs: 30_000, what: 'the worker serving its metrics' });
    connection = createWorkerRedis(TEST_REDIS_URL);
    usageRollup = createQueue(queueNames.usageRollup, connection, t.config.QUEUE_PREFIX) as unknown as Queue;
  }, LONG);

  afterAll(async () => {
    await Promise.all([stopProcess(resolver), stopProcess(registry), stopProcess(worker)]);
    await usageRollup?.close();
    connection?.disconnect();
    await new Promise((resolve) => site?.close(resolve));
    await t?.close();
  }, LONG);

  it('each part answers /metrics in the Prometheus text format, with the process metrics', async () => {
    for (const [url, headers] of [
      [`${resolver.base}/metrics`, {}],
      [`${registry.base}/metrics`, {}],
      [workerMetrics, bearer],
    ] as const) {
      const metrics = await scrape(url, headers);
      expect(metrics.family('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
      expect(metrics.family('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
      expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    }
  });

  it('counts resolutions on the resolver by family and status, with their latency', async () => {
    const url = `${resolver.base}/metrics`;
    const before = await scrape(url);
    for (let i = 0; i < 5; i++) expect((await fetch(`${resolver.base}/taxonomy:9606`)).status).toBe(200);
    // An unknown prefix is a 400, as in the reference.
    for (let i = 0; i < 2; i++) expect((await fetch(`${resolver.base}/nosuchprefix:1`)).status).toBe(400);
    const reverse = await fetch(`${resolver.base}/reverse/byPrefix`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: '1.0', payload: { url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606' } }),
    });
    const reverseStatus = String(reverse.status);
    expect(['200', '204']).toContain(reverseStatus);
    expect((await fetch(`${resolver.base}/health/live`)).status).toBe(200);
    const requests = 'curie_http_requests_total';
    // The text is rendered at most once a second: a render that counts the last request counts them all.
    const after = await scrapeUntil(
      url,
      (m) => m.value(requests, { family: 'health', status: '200' }) > before.value(requests, { family: 'health', status: '200' }),
      'a scrape counting the requests',
    );

    const latency = 'curie_http_request_duration_seconds';
    expect(after.family(requests)?.type).toBe('COUNTER');
    expect(after.family(latency)?.type).toBe('HISTOGRAM');
    const moved = (name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    expect(moved(requests, { family: 'resolution', status: '200' })).toBe(5);
    expect(moved(requests, { family: 'resolution', status: '400' })).toBe(2);
    expect(moved(requests, { family: 'reverse', status: reverseStatus })).toBe(1);
    expect(moved(requests, { family: 'health', status: '200' })).toBe(1);
    expect(after.count(latency, { family: 'resolution' }) - before.count(latency, { family: 'resolution' })).toBe(7);
    expect(after.bucket(latency, '+Inf', { family: 'resolution' })).toBe(after.count(latency, { family: 'resolution' }));
    expect(after.count(latency, { family: 'reverse' }) - before.count(latency, { family: 'reverse' })).toBe(1);
    // The scrape before this one is counted too.
    expect(after.value(requests, { family: 'metrics', status: '200' })).toBeGreaterThanOrEqual(1);
  });

  it('answers any number of scrapes at once from at most one render a second, and shows new traffic within a second or so', async () => {
    const url = `${resolver.base}/metrics`;
    const renders = 'curie_metrics_renders_total';
    const started = Date.now();
    const bodies = await Promise.all(
      Array.from({ length: 64 }, async () => {
        const res = await fetch(url);
        expect(res.status).toBe(200);
        return res.text();
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    // One text per render: at most one per second the scrapes took, plus the one they may have begun with.
    const texts = [...new Set(bodies)];
    expect(texts.length).toBeLessThanOrEqual(Math.floor(seconds) + 2);
    const scrapes = texts.map((text) => ScrapedMetrics.parse(text));
    const seen = scrapes.map((m) => m.value(renders));
    expect(new Set(seen).size).toBe(texts.length);
    const last = Math.max(...seen);

    const resolutions = { family: 'resolution', status: '200' };
    const before = scrapes.find((m) => m.value(renders) === last)!;
    expect((await fetch(`${resolver.base}/taxonomy:9606`)).status).toBe(200);
    const after = await scrapeUntil(
      url,
      (m) => m.value('curie_http_requests_total', resolutions) > before.value('curie_http_requests_total', resolutions),
      'the resolution counted',
    );
    expect(after.value('curie_http_requests_total', resolutions) - before.value('curie_http_requests_total', resolutions)).toBe(1);
    expect(after.value(renders)).toBeGreaterThan(last);
  });

  it('counts browse requests on the registry by family and status, with their latency', async () => {
    const url = `${registry.base}/metrics`;
    const before = await scrape(url);
    for (let i = 0; i < 3; i++) expect((await fetch(`${registry.base}/restApi/namespaces?size=1`)).status).toBe(200);
    const labels = { family: 'browse', status: '200' };
    const after = await scrapeUntil(
      url,
      (m) => m.value('curie_http_requests_total', labels) - before.value('curie_http_requests_total', labels) >= 3,
      'a scrape counting the browse requests',
    );

    expect(after.value('curie_http_requests_total', labels) - before.value('curie_http_requests_total', labels)).toBe(3);
    const browse = { family: 'browse' };
    expect(after.count('curie_http_request_duration_seconds', browse) - before.count('curie_http_request_duration_seconds', browse)).toBe(3);
  });

  it("gives the resolver's snapshot version and age, and the lag from a change notification to the snapshot holding it", async () => {
    const url = `${resolver.base}/metrics`;
    const before = await scrape(url);
    expect(before.family('curie_resolver_snapshot_version')?.type).toBe('GAUGE');
    expect(before.value('curie_resolver_snapshot_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(before.value('curie_resolver_snapshot_stale')).toBe(0);

    const changedAt = Date.now();
    await t.db.raw("UPDATE namespaces SET name = 'NCBI Taxonomy (changed)' WHERE prefix = 'taxonomy'");
    const version = Number((await t.db('registryChanges').max('version as v').first())?.v);
    expect(version).toBeGreaterThan(before.value('curie_resolver_snapshot_version'));
    const after = await scrapeUntil(url, (m) => m.value('curie_resolver_snapshot_version') === version, 'the snapshot reaching the new version');

    const lag = 'curie_resolver_change_lag_seconds';
    expect(after.family(lag)?.type).toBe('HISTOGRAM');
    expect(after.count(lag)).toBeGreaterThan(before.count(lag));
    // The figures measure the right interval: neither the new lag nor the new snapshot's age can exceed the
    // time since the change (how short the lag is, is bench:resolver's "change visible" figure).
    const sinceChange = (Date.now() - changedAt) / 1000;
    expect(after.value(`${lag}_sum`) - before.value(`${lag}_sum`)).toBeLessThanOrEqual(sinceChange);
    expect(after.value('curie_resolver_snapshot_age_seconds')).toBeLessThanOrEqual(sinceChange);
  });

  it("reads the worker's queue depths from Redis at each scrape", async () => {
    const delayed = { queue: queueNames.usageRollup, state: 'delayed' };
    const before = await scrape(workerMetrics, bearer);
    expect(before.family('curie_queue_jobs')?.type).toBe('GAUGE');
    for (const queue of Object.values(queueNames)) expect(before.sample('curie_queue_jobs', { queue, state: 'waiting' })).toBeDefined();

    const job = await usageRollup.add('manual', {}, { delay: 600_000 });
    try {
      const during = await scrapeUntil(workerMetrics, (m) => m.value('curie_queue_jobs', delayed) !== before.value('curie_queue_jobs', delayed), 'the delayed job read', bearer);
      expect(during.value('curie_queue_jobs', delayed)).toBe(before.value('curie_queue_jobs', delayed) + 1);
    } finally {
      await job.remove();
    }
    const after = await scrapeUntil(
      workerMetrics,
      (m) => m.value('curie_queue_jobs', delayed) !== before.value('curie_queue_jobs', delayed) + 1,
      'the removed job read',
      bearer,
    );
    expect(after.value('curie_queue_jobs', delayed)).toBe(before.value('curie_queue_jobs', delayed));
  });

  it('counts the jobs the worker process ran, by queue and outcome, with their duration', async () => {
    const completed = { queue: queueNames.usageRollup, outcome: 'completed' };
    const failed = { queue: queueNames.usageRollup, outcome: 'failed' };
    const before = await scrape(workerMetrics, bearer);

    await usageRollup.add('manual', {});
    // A day that is no date fails at once (UnrecoverableError), without retries.
    await usageRollup.add('manual', { day: 'not-a-day' });
    const after = await scrapeUntil(
      workerMetrics,
      (m) => m.value('curie_jobs_total', completed) > before.value('curie_jobs_total', completed) && m.value('curie_jobs_total', failed) > before.value('curie_jobs_total', failed),
      'the rollup jobs finishing',
      bearer,
    );

    expect(after.family('curie_jobs_total')?.type).toBe('COUNTER');
    expect(after.value('curie_jobs_total', completed) - before.value('curie_jobs_total', completed)).toBe(1);
    expect(after.value('curie_jobs_total', failed) - before.value('curie_jobs_total', failed)).toBe(1);
    const rollups = { queue: queueNames.usageRollup };
    expect(after.count('curie_job_duration_seconds', rollups) - before.count('curie_job_duration_seconds', rollups)).toBe(1);
  });

  it('gives the dataset build the worker ran at start: its duration and the size of what it serves', async () => {
    const metrics = await scrapeUntil(workerMetrics, (m) => m.count('curie_dataset_build_duration_seconds', { status: 'built' }) >= 1, 'the first dataset build', bearer);

    expect(metrics.value('curie_jobs_total', { queue: queueNames.dataset, outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(metrics.value('curie_dataset_records', { kind: 'namespaces' })).toBe(22);
    expect(metrics.value('curie_dataset_records', { kind: 'resources' })).toBeGreaterThan(22);
    expect(metrics.value('curie_dataset_size_bytes', { variant: 'plain', encoding: 'identity' })).toBeGreaterThan(1000);
    expect(metrics.value('curie_dataset_size_bytes', { variant: 'plain', encoding: 'gzip' })).toBeGreaterThan(0);
    expect(metrics.value('curie_dataset_registry_version')).toBeGreaterThan(0);
  });

  it('counts URL checks by verdict', async () => {
    const urlChecks = createQueue(queueNames.urlCheck, connection, t.config.QUEUE_PREFIX);
    try {
      const before = await scrape(workerMetrics, bearer);
      await urlChecks.add(URL_CHECK_JOB_NAME, { url: siteUrl, isProtected: false });
      const after = await scrapeUntil(
        workerMetrics,
        (m) => m.value('curie_url_checks_total', { verdict: 'ok' }) > before.value('curie_url_checks_total', { verdict: 'ok' }),
        'the URL check finishing',
        bearer,
      );
      expect(after.value('curie_url_checks_total', { verdict: 'ok' }) - before.value('curie_url_checks_total', { verdict: 'ok' })).toBe(1);
    } finally {
      await urlChecks.close();
    }
  });

  it('counts link checks by outcome', async () => {
    const linkChecks = createQueue(queueNames.linkCheck, connection, t.config.QUEUE_PREFIX);
    const skipped = { outcome: 'skipped' };
    try {
      const before = await scrape(workerMetrics, bearer);
      // No URL to check: stored as skipped without a request (and nothing stored, the resource being unknown).
      await linkChecks.add(LINK_CHECK_JOB_NAME, { runId: 'metrics-test', resourceId: 2_000_000_000, urlKind: 'sample', url: null, skipReason: 'test', isProtected: false });
      const after = await scrapeUntil(
        workerMetrics,
        (m) => m.value('curie_link_checks_total', skipped) > before.value('curie_link_checks_total', skipped),
        'the link check finishing',
        bearer,
      );
      expect(after.family('curie_link_checks_total')?.type).toBe('COUNTER');
      expect(after.value('curie_link_checks_total', skipped) - before.value('curie_link_checks_total', skipped)).toBe(1);
    } finally {
      await linkChecks.close();
    }
  });

  it("answers the worker's metrics 401 without METRICS_TOKEN", async () => {
    const res = await fetch(workerMetrics);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect((await fetch(workerMetrics, { headers: { Authorization: 'Bearer wrong-token-wrong-token' } })).status).toBe(401);
  });
});

describe('METRICS_TOKEN and a metrics port of its own', () => {
  let t: AreaStack;
  let resolver: AreaProcess;
  let metricsUrl: string;

  beforeAll(async () => {
    t = await startStack('metrics_port');
    const port = await freePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    resolver = await startAreaProcess('resolver', t, { RESOLVER_METRICS_PORT: String(port), METRICS_TOKEN: TOKEN });
  }, LONG);

  afterAll(async () => {
    await stopProcess(resolver);
    await t?.close();
  }, LONG);

  it('serves the resolver metrics on their own port, with the token only', async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    const metrics = await scrape(metricsUrl, bearer);
    expect(metrics.family('curie_resolver_snapshot_version')?.type).toBe('GAUGE');
    expect(metrics.family('process_cpu_user_seconds_total')?.type).toBe('COUNTER');
  });

  it("leaves /metrics off the resolver's own port (and never reads it as a compact identifier)", async () => {
    const res = await fetch(`${resolver.base}/metrics`, { headers: bearer });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { errorMessage: string }).errorMessage).toMatch(/No such endpoint/);
  });

  it('answers only /metrics there', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/health/live'))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST', headers: bearer })).status).toBe(405);
  });

  it("guards the registry area's /metrics with the token, answering 401 in the envelope", async () => {
    const app = t.registryApp({ env: { METRICS_TOKEN: TOKEN } }).callback();
    const refused = await request(app).get('/metrics');
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(refused.body).toMatchObject({ apiVersion: '1.0', payload: null });
    expect((await request(app).get('/metrics').set('Authorization', 'Bearer not-the-token-at-all')).status).toBe(401);

    const answered = await request(app).get('/metrics').set(bearer);
    expect(answered.status).toBe(200);
    expect(ScrapedMetrics.parse(answered.text).family('curie_http_requests_total')?.type).toBe('COUNTER');
  });
});
