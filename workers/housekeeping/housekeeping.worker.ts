import { queueNames } from '../../src/queue/queues.js';
import { startWorker, type JobFamily } from '../job-family.js';
import { processHousekeeping } from './housekeeping.processor.js';

/**
 * Hourly housekeeping (its schedule is in schedules.ts): deletes Idempotency-Key answers past
 * IDEMPOTENCY_KEY_RETENTION_HOURS.
 */
export const housekeepingFamily: JobFamily = {
  name: 'housekeeping',
  start: async (deps) => {
    const { config, db, logger } = deps;
    const worker = startWorker(
      deps,
      queueNames.housekeeping,
      async () => {
        const result = await processHousekeeping({ db, retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS });
        if (result.idempotencyKeysDeleted > 0) logger.info(result, 'housekeeping done');
        return result;
      },
      { concurrency: 1 },
    );
    return [worker];
  },
};
