/**
 * The nightly usage rollup as operators run it: two compiled worker processes (npm test builds first) on
 * one queue. One schedule exists however many workers upsert it, and a rollup job runs once.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { QueueEvents, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createProducerRedis, createWorkerRedis } from '../../src/queue/connections.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { createQueue, queueNames, schedulerIds, type UsageRollupJob } from '../../src/queue/queues.js';
import { usageKeys } from '../../src/statistics/usage-keys.js';
import { spawnNode, type Spawned } from '../support/processes.js';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

describe('usage rollup with two worker processes', () => {
  const prefix = `test-rollup-${randomBytes(4).toString('hex')}`;
  // A day of the distant past that no other test or run uses.
  const day = `19${String(10 + Math.floor(Math.random() * 80))}-0${1 + Math.floor(Math.random() * 8)}-1${Math.floor(Math.random() * 9)}`;
  let t: TestDatabase;
  let dir: string;
  let connection: Redis;
  let redis: Redis;
  let queue: Queue<UsageRollupJob>;
  const workers: Spawned[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('usage_rollup_workers');
    dir = mkdtempSync(path.join(os.tmpdir(), 'rollup-workers-'));
    redis = createProducerRedis(TEST_REDIS_URL);
    connection = createWorkerRedis(TEST_REDIS_URL);
    queue = createQueue<UsageRollupJob>(queueNames.usageRollup, connection, prefix);
    for (let i = 0; i < 2; i++) {
      workers.push(
        spawnNode('dist/workers/main.js', {
          DATABASE_URL: t.url,
          REDIS_URL: TEST_REDIS_URL,
          QUEUE_PREFIX: prefix,
          DATASET_DIR: dir,
          LOG_LEVEL: 'info',
        }),
      );
    }
    await waitFor(async () => workers.every((w) => w.output().includes('worker started')), { timeoutMs: 30000, what: 'both workers started' });
  }, 60000);

  afterAll(async () => {
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await queue.close();
    // Every queue's keys, not only this one's: each worker scheduled jobs on all of them at its start.
    await deleteQueueKeys(connection, prefix);
    await redis.del(usageKeys.visits(day), usageKeys.prefixes(day), usageKeys.visitors(day, 'taxonomy'));
    await redis.srem(usageKeys.days, day);
    await redis.srem(usageKeys.rolledUp, day);
    redis.disconnect();
    connection.disconnect();
    rmSync(dir, { recursive: true, force: true });
    await t.drop();
  });

  it('keeps one nightly schedule in UTC however many workers upsert it', async () => {
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toEqual([schedulerIds.nightlyUsageRollup]);
    expect(schedulers[0]).toMatchObject({ pattern: '30 0 * * *', tz: 'UTC' });
  });

  it('rolls a day up once, in one of the workers', async () => {
    await redis.hset(usageKeys.visits(day), 'taxonomy', '7');
    await redis.sadd(usageKeys.prefixes(day), 'taxonomy');
    await redis.pfadd(usageKeys.visitors(day, 'taxonomy'), 'a', 'b', 'c');
    // BullMQ leaves a connection it was handed open on close(): this one is closed here, or jest cannot exit.
    const eventsConnection = createWorkerRedis(TEST_REDIS_URL);
    const events = new QueueEvents(queueNames.usageRollup, { connection: eventsConnection, prefix });
    let job: Awaited<ReturnType<typeof queue.add>>;
    try {
      await events.waitUntilReady();
      job = await queue.add('manual', { day });
      await job.waitUntilFinished(events, 30000);
    } finally {
      await events.close();
      eventsConnection.disconnect();
    }
    const finished = await queue.getJob(job.id!);
    expect(finished?.attemptsMade).toBe(1);
    expect(await queue.getCompletedCount()).toBe(1);
    const rows = await t.db('usage_daily').where({ day }).select('prefix', 'visits', 'uniqueVisitors');
    expect(rows).toEqual([{ prefix: 'taxonomy', visits: 7, uniqueVisitors: 3 }]);
  }, 60000);
});
