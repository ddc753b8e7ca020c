/** Deletes what the service keeps only for a while (stored Idempotency-Key answers). */
export const HOUSEKEEPING_QUEUE = 'housekeeping';

export interface HousekeepingJob {
  /** 'hourly' (the scheduler) or 'manual'. */
  reason: 'hourly' | 'manual';
}

export interface HousekeepingResult {
  idempotencyKeysDeleted: number;
}

/** Stable and versioned: upserting it again on every start changes nothing. */
export const HOURLY_HOUSEKEEPING_SCHEDULER = 'housekeeping:hourly:v1';
