/**
 * Job schedules when Redis comes back empty: a FLUSHALL (the connection stays up) and a restart without
 * persistence (the connection drops and comes back). A real worker process (npm test builds first) runs
 * against a redis-server of this test's own, never the shared one; the schedules must come back without
 * restarting anything, and the scheduled jobs run again: a due notification is sent, and the usage rollup
 * catches up the finished days Postgres lacks.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, queueNames, schedulerIds, type QueueName } from '../../src/queue/queues.js';
import { writeOutbox } from '../../src/notifications/outbox.js';
import { usageKeys } from '../../src/statistics/usage-keys.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { startOwnRedis, type OwnRedis } from '../support/redis-server.js';
import { spawnWorker } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;

/** Every schedule of the service, by queue. */
const SCHEDULES: [queue: QueueName, id: string][] = [
  [queueNames.dataset, schedulerIds.nightlyDatasetBuild],
  [queueNames.usageRollup, schedulerIds.nightlyUsageRollup],
  [queueNames.notifications, schedulerIds.notificationsPoll],
  [queueNames.housekeeping, schedulerIds.hourlyHousekeeping],
];

/** The schedules Redis lacks, as [queue, id]. */
async function missingSchedules(redis: Redis, prefix: string): Promise<string[]> {
  const missing: string[] = [];
  for (const [name, id] of SCHEDULES) {
    const queue = createQueue(name, redis, prefix);
    try {
      if ((await queue.getJobScheduler(id)) === undefined) missing.push(id);
    } finally {
      await queue.close();
    }
  }
  return missing;
}

async function waitForEverySchedule(redis: Redis, prefix: string, timeoutMs: number): Promise<void> {
  await waitFor(async () => (await missingSchedules(redis, prefix)).length === 0, { timeoutMs, what: 'every schedule being in Redis' });
}

/** Writes one due notification and waits for the worker to send it (logged: no SMTP_URL). */
async function notificationGetsSent(t: AreaStack, timeoutMs: number): Promise<void> {
  const subject = `after the loss ${randomBytes(3).toString('hex')}`;
  await writeOutbox(t.db, [{ kind: 'prefix.start.requester', recipient: 'rita@example.org', subject, body: 'Your request was received.' }]);
  await waitFor(
    () => t.db('notificationOutbox').where({ subject }).whereNotNull('sentAt').first('id'),
    { timeoutMs, what: 'the notification being sent' },
  );
}

interface WorkerOnOwnRedis {
  redisServer: OwnRedis;
  t: AreaStack;
  inspector: Redis;
  worker: Spawned | undefined;
  prefix: string;
}

/**
 * A worker process on a redis-server of this block's own (the test empties or restarts it), with its schedules
 * in place before the tests run; `checkIntervalMs` is its WORKER_SCHEDULE_CHECK_INTERVAL_MS.
 */
function useWorkerOnOwnRedis(label: string, checkIntervalMs: number): WorkerOnOwnRedis {
  const under = {} as WorkerOnOwnRedis;
  beforeAll(async () => {
    under.redisServer = await startOwnRedis();
    under.t = await startStack(`job_schedules_${label}`, { data: 'none' });
    under.prefix = under.t.config.QUEUE_PREFIX;
    under.inspector = createWorkerRedis(under.redisServer.url);
    under.inspector.on('error', () => undefined);
    under.worker = spawnWorker(under.t, {
      REDIS_URL: under.redisServer.url,
      NOTIFICATION_POLL_INTERVAL_MS: '200',
      WORKER_SCHEDULE_CHECK_INTERVAL_MS: String(checkIntervalMs),
    });
    await waitForEverySchedule(under.inspector, under.prefix, 30_000);
  }, LONG);
  afterAll(async () => {
    await stopProcess(under.worker);
    under.inspector?.disconnect();
    await under.redisServer?.destroy();
    await under.t?.close();
  }, LONG);
  return under;
}

describe('job schedules after a FLUSHALL', () => {
  const under = useWorkerOnOwnRedis('flush', 500);

  it('puts every schedule back within 5 s without a restart, and the jobs run again', async () => {
    const { inspector, prefix, t, worker } = under;
    // Counters of two finished days arrive with the empty Redis (as on a replica that had only them): one
    // never rolled up, one marked rolled up in Redis that this database has no rows of.
    const [fresh, marked] = ['2001-02-03', '2001-02-04'];
    const flush = inspector.multi().flushall();
    for (const day of [fresh, marked]) {
      flush.hset(usageKeys.visits(day), 'taxonomy', '4').sadd(usageKeys.prefixes(day), 'taxonomy').pfadd(usageKeys.visitors(day, 'taxonomy'), 'a', 'b').sadd(usageKeys.days, day);
    }
    await flush.sadd(usageKeys.rolledUp, marked).exec();

    await waitForEverySchedule(inspector, prefix, 5000);
    await notificationGetsSent(t, 15_000);
    const rolled = await waitFor(
      async () => {
        const rows = (await t.db('usageDaily').orderBy('day').select('day', 'prefix', 'visits', 'uniqueVisitors')) as unknown[];
        return rows.length === 2 ? rows : undefined;
      },
      { timeoutMs: 15_000, what: 'the rollup catching up both days' },
    );
    expect(rolled).toEqual([
      { day: fresh, prefix: 'taxonomy', visits: 4, uniqueVisitors: 2 },
      { day: marked, prefix: 'taxonomy', visits: 4, uniqueVisitors: 2 },
    ]);
    expect(worker!.child.exitCode).toBeNull();
  }, LONG);
});

describe('job schedules after Redis restarts empty', () => {
  // The periodic check is an hour away: what puts the schedules back here is the reconnection.
  const under = useWorkerOnOwnRedis('restart', 3_600_000);

  it('puts every schedule back once the worker has reconnected, and a due notification is sent', async () => {
    const { inspector, prefix, t, worker, redisServer } = under;
    await redisServer.stop();
    await redisServer.start();
    // ioredis waits up to 2 s between reconnection attempts; the margin is for a loaded machine.
    await waitForEverySchedule(inspector, prefix, 10_000);
    await notificationGetsSent(t, 15_000);
    expect(worker!.child.exitCode).toBeNull();
  }, LONG);
});
