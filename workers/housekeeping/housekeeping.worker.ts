import { Worker } from 'bullmq';
import { queueNames, type HousekeepingJob } from '../../src/queue/queues.js';
import type { JobFamily } from '../job-families.js';
import { processHousekeeping } from './housekeeping.processor.js';

/**
 * Hourly housekeeping (its schedule is in schedules.ts): deletes Idempotency-Key answers past
 * IDEMPOTENCY_KEY_RETENTION_HOURS.
 */
export const housekeepingFamily: JobFamily = {
  name: 'housekeeping',
  start: async ({ config, db, connection, logger }) => {
    const worker = new Worker<HousekeepingJob>(
      queueNames.housekeeping,
      async () => {
        const result = await processHousekeeping({ db, retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS });
        if (result.idempotencyKeysDeleted > 0) logger.info(result, 'housekeeping done');
        return result;
      },
      { connection, prefix: config.QUEUE_PREFIX, concurrency: 1 },
    );
    return [worker];
  },
};
