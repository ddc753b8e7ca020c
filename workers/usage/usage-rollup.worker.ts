import { Worker } from 'bullmq';
import { createQueue, queueNames, schedulerIds, type UsageRollupJob } from '../../src/queue/queues.js';
import type { JobFamily } from '../job-families.js';
import { processUsageRollup } from './usage-rollup.processor.js';

/**
 * Nightly rollup of usage counters (00:30 UTC, after the day has ended everywhere it is counted). The
 * scheduler id is stable, so every worker process upserting it at start leaves one schedule, and BullMQ
 * hands each run to one worker.
 */
export const usageRollupFamily: JobFamily = {
  name: 'usage-rollup',
  start: async ({ config, db, connection, logger }) => {
    const queue = createQueue<UsageRollupJob>(queueNames.usageRollup, connection, config.QUEUE_PREFIX);
    await queue.upsertJobScheduler(schedulerIds.nightlyUsageRollup, { pattern: '30 0 * * *', tz: 'UTC' }, { name: 'nightly', data: {} });
    await queue.close();
    const worker = new Worker<UsageRollupJob>(
      queueNames.usageRollup,
      async (job) => {
        const result = await processUsageRollup({ db, redis: connection }, job);
        logger.info({ days: result.days }, 'usage rolled up');
        return result;
      },
      { connection, prefix: config.QUEUE_PREFIX, concurrency: 1 },
    );
    return [worker];
  },
};
