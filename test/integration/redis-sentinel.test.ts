/**
 * REDIS_SENTINELS: the queues on a Redis watched by Sentinel, through a failover. A real worker process and
 * a producer find the primary through the Sentinel (REDIS_URL names a port where nothing listens, so any
 * job done proves the Sentinel path); the primary is killed, the Sentinel promotes the replica, and the same
 * worker and producer go on with the next job without a restart or a changed setting.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { createWorkerRedis, type RedisTarget } from '../../src/queue/connections.js';
import { DATASET_QUEUE, type DatasetBuildJob, type DatasetBuildOutcome } from '../../src/queue/dataset.queue.js';
import { createQueue } from '../../src/queue/queues.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { startOwnSentinelSet, type OwnSentinelSet } from '../support/redis-server.js';
import { describeRequiring, redisServerBinary } from '../support/requirements.js';
import { spawnWorker } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';

describeRequiring([redisServerBinary()], 'the queues through Redis Sentinel', () => {
  let t: AreaStack;
  let set: OwnSentinelSet;
  let target: RedisTarget;
  let worker: Spawned;
  let producer: Redis;
  let queue: Queue<DatasetBuildJob>;

  beforeAll(async () => {
    t = await startStack('redis_sentinel');
    set = await startOwnSentinelSet();
    // Port 1: nothing listens there. With REDIS_SENTINELS set, only the database number comes from it.
    target = { REDIS_URL: 'redis://127.0.0.1:1/0', REDIS_SENTINELS: set.sentinels, REDIS_SENTINEL_NAME: set.name };
    worker = spawnWorker(t, { REDIS_URL: target.REDIS_URL, REDIS_SENTINELS: set.sentinels, REDIS_SENTINEL_NAME: set.name, LOG_LEVEL: 'info' });
    producer = createWorkerRedis(target);
    producer.on('error', () => undefined);
    queue = createQueue(DATASET_QUEUE, producer, t.config.QUEUE_PREFIX) as Queue<DatasetBuildJob>;
    // While the primary is down the queue reports each failed reconnection; the test waits it out.
    queue.on('error', () => undefined);
    await waitFor(async () => (await queue.getWorkersCount()) > 0, { timeoutMs: 30_000, what: 'the worker taking dataset jobs through the Sentinel' });
  }, 60_000);

  afterAll(async () => {
    await stopProcess(worker);
    await queue?.close();
    producer?.disconnect();
    await set?.destroy();
    await t?.close();
  });

  /**
   * Adds a build job and waits for the worker's answer. The job's state is read (through the Sentinel, as the
   * producer reads everything) rather than waited for as a notification: on a busy machine a run once waited
   * 90 s for a completion event it never got.
   */
  async function build(reason: string): Promise<DatasetBuildOutcome> {
    // Eventually: right after a failover the producer may still be asking the Sentinel for the new primary;
    // a command refused meanwhile is tried again.
    // Any reason text is built from and recorded (checkDatasetBuildJob): the test names its two builds.
    const job = await waitFor(() => queue.add('manual', { reason: reason as DatasetBuildJob['reason'] }), {
      timeoutMs: 30_000,
      what: `the producer adding the ${reason} job through the Sentinel`,
    });
    try {
      // Eventually: the worker may still be on its start-up build, on a machine busy with other test files.
      const done = await waitFor(
        async () => {
          const state = await job.getState();
          if (state === 'failed') throw new Error(`the ${reason} job failed: ${(await queue.getJob(job.id!))?.failedReason}`);
          return state === 'completed' ? queue.getJob(job.id!) : undefined;
        },
        { timeoutMs: 90_000, everyMs: 200, what: `the ${reason} build` },
      );
      return done!.returnvalue as DatasetBuildOutcome;
    } catch (error) {
      throw new Error(`${(error as Error).message}\nthe worker's output:\n${worker.output().slice(-3000)}`, { cause: error });
    }
  }

  it('runs jobs on the primary the Sentinel names, and on the replica it promotes when that primary dies', async () => {
    const before = await build('before-failover');
    expect(before.namespaceCount).toBeGreaterThan(0);
    const replicaPort = Number(new URL(set.replica.url).port);
    // A crowd of connections as the service makes them, each reconnecting through the failover at its own
    // moment: with ioredis's failover detector on, a busy machine left some of them ended for good (a
    // command on an ended connection fails at once, so the wait below runs out).
    const crowd = Array.from({ length: 100 }, () => createWorkerRedis(target));
    crowd.forEach((connection) => connection.on('error', () => undefined));
    try {
      await Promise.all(crowd.map((connection) => connection.ping()));

      await set.primary.stop('SIGKILL');
      await waitFor(async () => (await set.primaryPort()) === replicaPort, { timeoutMs: 20_000, what: 'the Sentinel promoting the replica' });

      await waitFor(async () => (await Promise.all(crowd.map((connection) => connection.ping()))).every((answer) => answer === 'PONG'), {
        timeoutMs: 30_000,
        what: 'every connection answering from the promoted replica',
      });
    } finally {
      crowd.forEach((connection) => connection.disconnect());
    }

    const after = await build('after-failover');
    expect(after.registryVersion).toBe(before.registryVersion);
    const reasons = (await t.db('datasetBuilds').orderBy('id').pluck('reason')) as string[];
    expect(reasons).toEqual(expect.arrayContaining(['before-failover', 'after-failover']));
    expect(worker.child.exitCode).toBeNull();
  }, 240_000);
});
