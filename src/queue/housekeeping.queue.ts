/** Deletes what the service keeps only for a while (stored Idempotency-Key answers, link-check history). */
export const HOUSEKEEPING_QUEUE = 'housekeeping';

export interface HousekeepingJob {
  /** 'hourly' (the scheduler) or 'manual'. */
  reason: 'hourly' | 'manual';
}

export interface HousekeepingResult {
  idempotencyKeysDeleted: number;
  linkChecksDeleted: number;
  linkCheckRunsDeleted: number;
  /** Dated datasets past DATASET_RETENTION_DAYS pruned to their tombstone; present only when some were. */
  datedDatasetsPruned?: number;
}

/** Stable and versioned: upserting it again on every start changes nothing. */
export const HOURLY_HOUSEKEEPING_SCHEDULER = 'housekeeping:hourly:v1';
