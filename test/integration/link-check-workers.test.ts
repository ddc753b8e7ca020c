/**
 * Link checks as operators run them: two compiled worker processes (npm test builds first) on one database
 * and one Redis, checking fixture providers on 127.0.0.1 (URL_CHECK_ALLOW_PRIVATE_NETWORKS on in their
 * settings). Politeness is measured where a provider would see it, at the fixture, with the per-host
 * settings at their defaults; a worker killed mid-run leaves a run that still finishes with each URL stored
 * once; and the schedule exists only while LINKCHECK_ENABLED.
 */
import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { LinkCheckRow, LinkCheckRunRow } from '../../src/db/tables.js';
import { newManualRunId, planLinkCheckRun } from '../../src/link-check/plan-run.js';
import { createWorkerRedis } from '../../src/queue/connections.js';
import type { LinkCheckJob } from '../../src/queue/link-check.queue.js';
import { createQueue, queueNames, schedulerIds } from '../../src/queue/queues.js';
import { fixtureNamespace } from '../factories/link-check.factory.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { startLinkFixture, type LinkFixture } from '../support/link-check-fixture.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;
const PROVIDERS = 3;

describe('link checks in two worker processes', () => {
  let t: AreaStack;
  let polite: LinkFixture;
  let killed: LinkFixture;
  let connection: Redis;
  let queue: Queue<LinkCheckJob>;
  let workers: Spawned[] = [];
  const politePrefix = `polite${randomBytes(3).toString('hex')}`;
  const killedPrefix = `killed${randomBytes(3).toString('hex')}`;

  const on = () => ({ redisUrl: TEST_REDIS_URL, prefix: t.config.QUEUE_PREFIX });
  const startWorkers = async (env: Record<string, string>[]) => {
    // A test that failed before stopping its workers leaves them to this one's start, not running past the file.
    await stopWorkers();
    workers = env.map((e) => spawnWorker(t, { URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true', ...e }));
    await waitForQueueWorkers(queueNames.linkCheck, env.length, on());
  };
  const stopWorkers = async () => {
    await Promise.all(workers.map((w) => stopProcess(w)));
    workers = [];
  };
  const planRun = (prefix: string) => planLinkCheckRun({ db: t.db, queue }, { runId: newManualRunId(), prefix, spreadMs: 0 });
  const finishedRun = (runId: string, timeoutMs: number) =>
    waitFor(
      async () => {
        const run = (await t.db('link_check_runs').where({ id: runId }).first()) as LinkCheckRunRow | undefined;
        return run?.finishedAt ? run : undefined;
      },
      { timeoutMs, what: `link-check run ${runId} finishing`, everyMs: 200 },
    );

  beforeAll(async () => {
    polite = await startLinkFixture();
    killed = await startLinkFixture();
    const providers = (fixture: LinkFixture, prefix: string, count: number, delayMs: number) =>
      fixtureNamespace(
        prefix,
        Array.from({ length: count }, (_, i) => ({
          code: `p${i}`,
          urlPattern: fixture.url(`/delay/${delayMs}/p${i}/{$id}`),
          resourceHomeUrl: fixture.url(`/delay/${delayMs}/p${i}/home`),
        })),
      );
    t = await startStack('link-check-workers', {
      data: { records: [providers(polite, politePrefix, PROVIDERS, 2500), providers(killed, killedPrefix, 6, 800)] },
    });
    connection = createWorkerRedis(TEST_REDIS_URL);
    queue = createQueue(queueNames.linkCheck, connection, t.config.QUEUE_PREFIX);
  }, LONG);

  afterAll(async () => {
    await stopWorkers();
    await queue?.close();
    connection?.disconnect();
    await t?.close();
    await polite?.close();
    await killed?.close();
  });

  it('never sends a host more than 2 requests at once, nor starts two within 1 s, across both processes', async () => {
    // Each worker names itself in its User-Agent (its contact URL), so the fixture sees who asked.
    await startWorkers([
      { LINKCHECK_CONTACT_URL: 'https://registry.test/worker-1', LINKCHECK_CONCURRENCY: '2' },
      { LINKCHECK_CONTACT_URL: 'https://registry.test/worker-2', LINKCHECK_CONCURRENCY: '2' },
    ]);
    // Which process takes which check is the queue's business: a worker whose check finds the host's lease
    // taken puts it off and takes the next, so one process may take a whole run while the other waits on
    // the queue (seen on a busy machine). The rules are asserted on every run, and runs go on (three at
    // most) until one has had requests from both processes, the case the rules are about.
    const senders = new Set<string | undefined>();
    for (let attempt = 1; attempt <= 3 && senders.size < 2; attempt++) {
      const first = polite.requests.length;
      const { runId, planned } = await planRun(politePrefix);
      expect(planned).toBe(2 * PROVIDERS);
      await finishedRun(runId, 60_000);

      // Every answer takes 2.5 s: with starts 1 s apart alone, three would be under way at once.
      const requests = polite.requests.slice(first).sort((a, b) => a.start - b.start);
      expect(requests.map((r) => r.method)).toEqual(Array(2 * PROVIDERS).fill('HEAD'));
      const gaps = requests.slice(1).map((r, i) => r.start - requests[i]!.start);
      // The lease is taken at Redis's clock before the connection opens, and a busy machine may delay one
      // connection more than the next (tens of ms when quiet; ~400 ms seen with three jest workers on two
      // cores): a gap at the fixture can fall short of the leases' 1 s by that delay, while the first start to
      // the last still spans every lease's second.
      const CONNECT_DELAY_MS = 500;
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000 - CONNECT_DELAY_MS);
      expect(requests.at(-1)!.start - requests[0]!.start).toBeGreaterThanOrEqual(1000 * gaps.length - CONNECT_DELAY_MS);
      // The rule is "at most 2": whether two actually overlap depends on how soon the second start comes after
      // the first, which is the machine's business, so it is not asserted (every check is, below).
      expect(polite.maxInFlight()).toBeLessThanOrEqual(2);
      const underWay = (at: number) => requests.filter((r) => r.start <= at && (r.end ?? Infinity) > at).length;
      expect(Math.max(...requests.map((r) => underWay(r.start)))).toBeLessThanOrEqual(2);

      const checks = (await t.db('link_checks').where({ runId })) as LinkCheckRow[];
      expect(checks.map((c) => c.outcome)).toEqual(Array(2 * PROVIDERS).fill('up'));
      const thisRun = new Set(requests.map((r) => /worker-\d/.exec(r.userAgent)?.[0]));
      if (thisRun.size === 2) thisRun.forEach((sender) => senders.add(sender));
    }
    expect(senders).toEqual(new Set(['worker-1', 'worker-2']));
    await stopWorkers();
  }, LONG);

  it('finishes a run whose worker was killed mid-check, each URL stored exactly once', async () => {
    const env = { LINKCHECK_HOST_DELAY_MS: '100', LINKCHECK_TIMEOUT_MS: '2000', WORKER_LOCK_DURATION_MS: '1500' };
    await startWorkers([env, env]);
    const { runId, planned } = await planRun(killedPrefix);
    expect(planned).toBe(12);
    await waitFor(() => killed.requests.length >= 3 && killed.requests.some((r) => r.end === undefined), {
      timeoutMs: 30_000,
      what: 'checks under way',
    });
    await stopProcess(workers[0], 'SIGKILL');

    const run = await finishedRun(runId, 90_000);
    expect(run).toMatchObject({ planned: 12, done: 12 });
    const checks = (await t.db('link_checks').where({ runId }).orderBy(['resourceId', 'urlKind'])) as LinkCheckRow[];
    expect(checks).toHaveLength(12);
    expect(new Set(checks.map((c) => `${c.resourceId}-${c.urlKind}`)).size).toBe(12);
    expect(checks.map((c) => c.outcome)).toEqual(Array(12).fill('up'));
    // Every URL was asked for; the ones the killed worker had under way were asked again.
    expect(new Set(killed.requests.map((r) => r.path)).size).toBe(12);
    await stopWorkers();
  }, LONG);

  it('keeps no link-check schedule while LINKCHECK_ENABLED is off (the default)', async () => {
    const plans = createQueue(queueNames.linkCheckPlan, connection, t.config.QUEUE_PREFIX);
    try {
      expect(await plans.getJobSchedulers()).toEqual([]);
    } finally {
      await plans.close();
    }
  });
});

describe('the link-check schedule', () => {
  let t: AreaStack;
  let connection: Redis;
  let plans: Queue;
  let worker: Spawned | undefined;

  beforeAll(async () => {
    // An empty registry: a planned run checks nothing, and nothing is ever asked of a real provider.
    t = await startStack('link-check-schedule', { data: 'none' });
    connection = createWorkerRedis(TEST_REDIS_URL);
    plans = createQueue(queueNames.linkCheckPlan, connection, t.config.QUEUE_PREFIX) as unknown as Queue;
  }, LONG);

  afterAll(async () => {
    await stopProcess(worker);
    await plans?.close();
    connection?.disconnect();
    await t?.close();
  });

  it('is made by a worker with LINKCHECK_ENABLED=true, plans a run at once, and goes when the setting is off again', async () => {
    const on = { redisUrl: TEST_REDIS_URL, prefix: t.config.QUEUE_PREFIX };
    worker = spawnWorker(t, { LINKCHECK_ENABLED: 'true', LINKCHECK_INTERVAL: '6h' });
    await waitForQueueWorkers(queueNames.linkCheckPlan, 1, on);
    const schedulers = await plans.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.every])).toEqual([[schedulerIds.linkCheckPlan, 6 * 3_600_000]]);
    const run = await waitFor(async () => (await t.db('link_check_runs').first()) as LinkCheckRunRow | undefined, {
      timeoutMs: 30_000,
      what: 'the first scheduled run',
    });
    expect(run).toMatchObject({ prefix: null });
    expect(run.id).toMatch(/^repeat-link-check-plan-v1-/);
    await waitFor(async () => ((await t.db('link_check_runs').where({ id: run.id }).first()) as LinkCheckRunRow).finishedAt, {
      timeoutMs: 10_000,
      what: 'the empty run finishing',
    });
    await stopProcess(worker);

    worker = spawnWorker(t, { LINKCHECK_ENABLED: 'false' });
    await waitFor(async () => (await plans.getJobSchedulers()).length === 0, { timeoutMs: 30_000, what: 'the schedule removed' });
  }, LONG);
});
