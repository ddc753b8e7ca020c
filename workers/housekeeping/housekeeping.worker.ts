import { queueNames } from '../../src/queue/queues.js';
import { scheduledFamily } from '../job-family.js';
import { processHousekeeping } from './housekeeping.processor.js';

/**
 * Hourly housekeeping (its schedule is in schedules.ts): deletes Idempotency-Key answers past
 * IDEMPOTENCY_KEY_RETENTION_HOURS.
 */
export const housekeepingFamily = scheduledFamily('housekeeping', queueNames.housekeeping, ({ config, db, logger }) => async () => {
  const result = await processHousekeeping({ db, retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS });
  if (result.idempotencyKeysDeleted > 0) logger.info(result, 'housekeeping done');
  return result;
});
