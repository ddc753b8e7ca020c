import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * Every queue of the service, its job names and payloads, in one place. Payloads carry ids, dates and
 * URLs, never whole rows or secrets. Producers (HTTP processes) use a connection that fails fast when
 * Redis is down; workers use one that waits (see connections.ts).
 */
export const queueNames = {
  dataset: 'dataset-build',
  usageRollup: 'usage-rollup',
  urlCheck: 'url-check',
  notifications: 'notifications',
  housekeeping: 'housekeeping',
} as const;

export interface DatasetBuildJob {
  /** Why the build was asked for: 'nightly', 'registry-change' or 'first-request'. */
  reason: 'nightly' | 'registry-change' | 'first-request';
}

export interface UsageRollupJob {
  /** Roll up every finished day still in Redis (the nightly run) or only this day (YYYY-MM-DD). */
  day?: string;
}

export interface UrlCheckJob {
  /** The URL to fetch, exactly as the validator built it (sample URL or home URL). */
  url: string;
  /** Resources behind a login: 401, 403, 407 and 451 also count as working. */
  isProtected: boolean;
}

/** Sends the due rows of notification_outbox (the rows, not the job, carry the messages). */
export interface NotificationsJob {
  /** 'poll' (the scheduler, every NOTIFICATION_POLL_INTERVAL_MS). */
  reason: 'poll';
}

/** Deletes what the service keeps only for a while (stored Idempotency-Key answers). */
export interface HousekeepingJob {
  /** 'hourly' (the scheduler) or 'manual'. */
  reason: 'hourly' | 'manual';
}

/** Stable, versioned scheduler ids: upserting them again on every start changes nothing. */
export const schedulerIds = {
  nightlyDatasetBuild: 'dataset-build:nightly:v1',
  nightlyUsageRollup: 'usage-rollup:nightly:v1',
  notificationsPoll: 'notifications:poll:v1',
  hourlyHousekeeping: 'housekeeping:hourly:v1',
} as const;

/** Deduplication id: one build waiting and one running at most, however many triggers arrive. */
export const DATASET_BUILD_DEDUP_ID = 'dataset-build';

export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 500 },
};

export function createQueue<T>(name: string, connection: Redis, prefix?: string): Queue<T> {
  return new Queue<T>(name, { connection, prefix, defaultJobOptions });
}
