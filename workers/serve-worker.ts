import type { Worker } from 'bullmq';
import { connectPostgres } from '../src/bootstrap/connect.js';
import { StartupError, type PartStarter, type StartedPart } from '../src/bootstrap/process-runner.js';
import { createWorkerRedis, pingRedis, redisUnreachableMessage } from '../src/queue/connections.js';
import { serveMetrics } from '../src/metrics/metrics-server.js';
import { createProcessRegistry } from '../src/metrics/process-registry.js';
import { WorkerMetrics } from '../src/metrics/worker-metrics.js';
import { warmUp } from '../src/lib/warm-up.js';
import { jobFamilies } from './job-families.js';
import { ScheduleKeeper } from './schedule-keeper.js';
import { jobSchedules } from './schedules.js';

/** Starts the worker process (its entry, main.ts, loads this module once its arguments and settings are good). */
export const startWorker: PartStarter = async (config, logger): Promise<StartedPart> => {
  const db = await connectPostgres(config, { max: 4 });
  const connection = createWorkerRedis(config);
  connection.on('error', (error) => logger.warn({ err: error }, 'Redis connection error; BullMQ will retry'));
  try {
    await pingRedis(connection, 5000);
  } catch (error) {
    connection.disconnect();
    await db.destroy();
    throw new StartupError(redisUnreachableMessage(config, error));
  }
  // Schedules before workers: a worker that is seen taking jobs has every schedule in place (the jobs a
  // schedule makes meanwhile wait in their queue).
  const schedules = new ScheduleKeeper({
    schedules: jobSchedules(config),
    connection,
    prefix: config.QUEUE_PREFIX,
    intervalMs: config.WORKER_SCHEDULE_CHECK_INTERVAL_MS,
    logger: logger.child({ part: 'schedules' }),
  });
  await schedules.start();
  const metrics =
    config.WORKER_METRICS_PORT === 0
      ? undefined
      : new WorkerMetrics(createProcessRegistry(), { connection, prefix: config.QUEUE_PREFIX, datasetDir: config.DATASET_DIR, logger });
  // What the jobs load on first use (got, recheck, n3), loaded before the first job: a link check takes its
  // host's politeness lease before it connects, and a first check that then loaded got (~170 ms, a second on a
  // busy machine) would reach the host that much later than its lease says.
  await warmUp();
  const workers: Worker[] = [];
  for (const family of jobFamilies) {
    workers.push(...(await family.start({ config, db, connection, logger: logger.child({ family: family.name }), metrics })));
  }
  const metricsServer = metrics
    ? await serveMetrics(metrics.registry, { host: config.HOST, port: config.WORKER_METRICS_PORT, token: config.METRICS_TOKEN, logger })
    : undefined;
  const families = jobFamilies.map((f) => f.name).join(', ') || 'none yet';
  const metricsAt = metricsServer ? `; metrics on ${config.HOST}:${metricsServer.port}` : '';
  return {
    description: `worker running ${jobFamilies.length} job families: ${families}${metricsAt}`,
    stop: async () => {
      await metricsServer?.close();
      await schedules.stop();
      // close() waits for the jobs in progress to finish; the force-exit timer bounds it.
      await Promise.all(workers.map((w) => w.close()));
      await metrics?.close();
      connection.disconnect();
      await db.destroy();
    },
  };
};
