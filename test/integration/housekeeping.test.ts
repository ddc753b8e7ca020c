/**
 * Housekeeping: stored Idempotency-Key answers are deleted once older than the retention, and link checks and
 * their runs once older than the history, by the hourly job of a real worker process (npm test builds first).
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createWorkerRedis } from '../../src/queue/connections.js';
import type { HousekeepingJob } from '../../src/queue/housekeeping.queue.js';
import { createQueue, queueNames, schedulerIds } from '../../src/queue/queues.js';
import { processHousekeeping } from '../../workers/housekeeping/housekeeping.processor.js';
import { fixtureNamespace } from '../factories/link-check.factory.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { runJob, spawnWorker } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const HOUR = 3600_000;

describe('housekeeping', () => {
  let t: AreaStack;
  let connection: Redis;
  let queue: Queue<HousekeepingJob>;
  let worker: Spawned;

  const storeKey = (key: string, ageMs: number) =>
    t.db('idempotencyKeys').insert({
      endpoint: 'registerPrefix',
      key,
      requestHash: 'x'.repeat(64),
      responseStatus: 200,
      responseBody: JSON.stringify({ apiVersion: '1.0', errorMessage: null, payload: { comment: 'stored', token: key } }),
      created: new Date(Date.now() - ageMs),
    });
  const keys = async () => ((await t.db('idempotencyKeys').orderBy('key').select('key')) as { key: string }[]).map((r) => r.key);

  beforeAll(async () => {
    // One resource for link checks to belong to (a fixture provider: nothing is checked here).
    const provider = { code: 'p', urlPattern: 'http://127.0.0.1:9/{$id}', resourceHomeUrl: 'http://127.0.0.1:9/' };
    t = await startStack('housekeeping', { data: { records: [fixtureNamespace('hk', [provider])] } });
    connection = createWorkerRedis(TEST_REDIS_URL);
    queue = createQueue(queueNames.housekeeping, connection, t.config.QUEUE_PREFIX);
    worker = spawnWorker(t, { LOG_LEVEL: 'info', IDEMPOTENCY_KEY_RETENTION_HOURS: '2' });
    await waitFor(() => worker.output().includes('worker started'), { timeoutMs: 30000, what: 'the worker started' });
  }, 60000);

  afterAll(async () => {
    await stopProcess(worker);
    await queue.close();
    connection.disconnect();
    // Every queue's keys go, not only this one's: the worker scheduled jobs on all of them at its start.
    await t.close();
  });

  beforeEach(() => t.db('idempotencyKeys').del());

  it('deletes keys older than the retention and keeps the others; a second run deletes nothing more', async () => {
    await storeKey('two-days', 48 * HOUR);
    await storeKey('just-past', 24 * HOUR + 60_000);
    await storeKey('almost', 23 * HOUR);
    await storeKey('fresh', 0);
    expect(await processHousekeeping({ db: t.db, retentionHours: 24, linkCheckHistoryDays: 30 })).toEqual({ idempotencyKeysDeleted: 2, linkChecksDeleted: 0, linkCheckRunsDeleted: 0 });
    expect(await keys()).toEqual(['almost', 'fresh']);
    expect(await processHousekeeping({ db: t.db, retentionHours: 24, linkCheckHistoryDays: 30 })).toEqual({ idempotencyKeysDeleted: 0, linkChecksDeleted: 0, linkCheckRunsDeleted: 0 });
  });

  it('deletes a backlog larger than one batch', async () => {
    await t.db.raw(
      `INSERT INTO idempotency_keys (endpoint, key, request_hash, response_status, response_body, created)
       SELECT 'registerPrefix', 'old-' || g, repeat('x', 64), 200, '{}'::jsonb, now() - interval '3 days' FROM generate_series(1, 12001) g`,
    );
    await storeKey('fresh', 0);
    expect(await processHousekeeping({ db: t.db, retentionHours: 24, linkCheckHistoryDays: 30 })).toEqual({ idempotencyKeysDeleted: 12001, linkChecksDeleted: 0, linkCheckRunsDeleted: 0 });
    expect(await keys()).toEqual(['fresh']);
  });

  it('deletes link checks and runs older than the history, and keeps the others', async () => {
    const resourceId = ((await t.db('resources').first('id')) as { id: number }).id;
    const day = 24 * HOUR;
    const run = (id: string, ageMs: number) => t.db('linkCheckRuns').insert({ id, startedAt: new Date(Date.now() - ageMs) });
    const check = (runId: string, urlKind: 'sample' | 'home', ageMs: number) =>
      t.db('linkChecks').insert({ runId, resourceId, urlKind, url: 'http://127.0.0.1:9/1', outcome: 'up', checkedAt: new Date(Date.now() - ageMs) });
    await run('old', 31 * day);
    await run('recent', 2 * day);
    await check('old', 'sample', 31 * day);
    await check('old', 'home', 30 * day + 60_000);
    await check('recent', 'sample', 2 * day);
    await check('recent', 'home', 29 * day);
    expect(await processHousekeeping({ db: t.db, retentionHours: 24, linkCheckHistoryDays: 30 })).toEqual({
      idempotencyKeysDeleted: 0,
      linkChecksDeleted: 2,
      linkCheckRunsDeleted: 1,
    });
    expect(await t.db('linkChecks').orderBy('urlKind').select('runId', 'urlKind')).toEqual([
      { runId: 'recent', urlKind: 'home' },
      { runId: 'recent', urlKind: 'sample' },
    ]);
    expect(await t.db('linkCheckRuns').pluck('id')).toEqual(['recent']);
    await t.db('linkChecks').del();
    await t.db('linkCheckRuns').del();
  });

  it('runs hourly in the worker process, with IDEMPOTENCY_KEY_RETENTION_HOURS', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toEqual([schedulerIds.hourlyHousekeeping]);
    expect(schedulers[0]).toMatchObject({ pattern: '15 * * * *', tz: 'UTC' });

    await storeKey('three-hours', 3 * HOUR);
    await storeKey('one-hour', 1 * HOUR);
    const { result } = await runJob(queue, { reason: 'manual' });
    expect(result).toEqual({ idempotencyKeysDeleted: 1, linkChecksDeleted: 0, linkCheckRunsDeleted: 0 });
    expect(await keys()).toEqual(['one-hour']);
  }, 60000);
});
