import { queueNames } from '../../src/queue/queues.js';
import { scheduledFamily } from '../job-family.js';
import { processHousekeeping } from './housekeeping.processor.js';

/**
 * Hourly housekeeping (its schedule is in schedules.ts): deletes Idempotency-Key answers past
 * IDEMPOTENCY_KEY_RETENTION_HOURS, link checks and runs past LINKCHECK_HISTORY_DAYS, and dated datasets
 * past DATASET_RETENTION_DAYS.
 */
export const housekeepingFamily = scheduledFamily('housekeeping', queueNames.housekeeping, ({ config, db, logger }) => async () => {
  const result = await processHousekeeping({
    db,
    retentionHours: config.IDEMPOTENCY_KEY_RETENTION_HOURS,
    linkCheckHistoryDays: config.LINKCHECK_HISTORY_DAYS,
    datasetDir: config.DATASET_DIR,
    datasetRetentionDays: config.DATASET_RETENTION_DAYS,
  });
  if (Object.values(result).some((deleted) => deleted > 0)) logger.info(result, 'housekeeping done');
  return result;
});
