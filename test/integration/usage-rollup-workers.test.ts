/**
 * The nightly usage rollup as operators run it: two compiled worker processes (npm test builds first) on
 * one queue. One schedule exists however many workers upsert it, and a rollup job runs once.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, queueNames, schedulerIds } from '../../src/queue/queues.js';
import type { UsageRollupJob } from '../../src/queue/usage-rollup.queue.js';
import { usageKeys } from '../../src/statistics/usage-keys.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { runJob, spawnWorker } from '../support/service-processes.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

describe('usage rollup with two worker processes', () => {
  // A day of the distant past that no other test or run uses.
  const day = `19${String(10 + Math.floor(Math.random() * 80))}-0${1 + Math.floor(Math.random() * 8)}-1${Math.floor(Math.random() * 9)}`;
  let t: AreaStack;
  let prefix: string;
  let connection: Redis;
  let redis: Redis;
  let queue: Queue<UsageRollupJob>;
  const workers: Spawned[] = [];

  beforeAll(async () => {
    t = await startStack('usage_rollup_workers', { data: 'none' });
    redis = t.redis;
    prefix = t.config.QUEUE_PREFIX;
    connection = createWorkerRedis(TEST_REDIS_URL);
    queue = createQueue(queueNames.usageRollup, connection, prefix);
    workers.push(spawnWorker(t, { LOG_LEVEL: 'info' }), spawnWorker(t, { LOG_LEVEL: 'info' }));
    await waitFor(() => workers.every((w) => w.output().includes('worker started')), { timeoutMs: 30000, what: 'both workers started' });
  }, 60000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => stopProcess(worker)));
    await queue.close();
    await redis.del(usageKeys.visits(day), usageKeys.prefixes(day), usageKeys.visitors(day, 'taxonomy'));
    await redis.srem(usageKeys.days, day);
    await redis.srem(usageKeys.rolledUp, day);
    connection.disconnect();
    // Every queue's keys go, not only this one's: each worker scheduled jobs on all of them at its start.
    await t.close();
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
    const job = await runJob(queue, { day });
    const finished = await queue.getJob(job.id);
    expect(finished?.attemptsMade).toBe(1);
    expect(await queue.getCompletedCount()).toBe(1);
    const rows = await t.db('usage_daily').where({ day }).select('prefix', 'visits', 'uniqueVisitors');
    expect(rows).toEqual([{ prefix: 'taxonomy', visits: 7, uniqueVisitors: 3 }]);
  }, 60000);
});
