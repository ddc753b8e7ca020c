import { queueNames } from '../../src/queue/queues.js';
import { scheduledFamily } from '../job-family.js';
import { processUsageRollup } from './usage-rollup.processor.js';

/**
 * Nightly rollup of usage counters (00:30 UTC; its schedule is in schedules.ts). BullMQ hands each run to
 * one worker.
 */
export const usageRollupFamily = scheduledFamily('usage-rollup', queueNames.usageRollup, ({ db, connection, logger }) => async (job) => {
  const result = await processUsageRollup({ db, redis: connection }, job);
  logger.info({ days: result.days }, 'usage rolled up');
  return result;
});
