import { Worker } from 'bullmq';
import { createQueue, queueNames, schedulerIds, type HousekeepingJob } from '../../src/queue/queues.js';
import type { JobFamily } from '../job-families.js';
import { processHousekeeping } from './housekeeping.processor.js';

/**
 * Hourly housekeeping: deletes Idempotency-Key answers past IDEMPOTENCY_KEY_RETENTION_HOURS. The scheduler
 * id is stable, so every worker process upserting it at start leaves one schedule.
 */
export const housekeepingFamily: JobFamily = {
  name: 'housekeeping',
  start: async ({ config, db, connection, logger }) => {
    const queue = createQueue<HousekeepingJob>(queueNames.housekeeping, connection, config.QUEUE_PREFIX);
    await queue.upsertJobScheduler(schedulerIds.hourlyHousekeeping, { pattern: '15 * * * *', tz: 'UTC' }, { name: 'hourly', data: { reason: 'hourly' } });
    await queue.close();
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
