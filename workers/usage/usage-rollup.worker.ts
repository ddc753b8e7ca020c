import { Worker } from 'bullmq';
import { queueNames, type UsageRollupJob } from '../../src/queue/queues.js';
import type { JobFamily } from '../job-families.js';
import { processUsageRollup } from './usage-rollup.processor.js';

/**
 * Nightly rollup of usage counters (00:30 UTC; its schedule is in schedules.ts). BullMQ hands each run to
 * one worker.
 */
export const usageRollupFamily: JobFamily = {
  name: 'usage-rollup',
  start: async ({ config, db, connection, logger }) => {
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
