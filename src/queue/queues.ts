import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { DATASET_QUEUE, NIGHTLY_DATASET_BUILD_SCHEDULER, type DatasetBuildJob, type DatasetBuildOutcome } from './dataset.queue.js';
import { HOUSEKEEPING_QUEUE, HOURLY_HOUSEKEEPING_SCHEDULER, type HousekeepingJob, type HousekeepingResult } from './housekeeping.queue.js';
import {
  LINK_CHECK_PLAN_QUEUE,
  LINK_CHECK_PLAN_SCHEDULER,
  LINK_CHECK_QUEUE,
  type LinkCheckJob,
  type LinkCheckJobResult,
  type LinkCheckPlanJob,
  type LinkCheckPlanResult,
} from './link-check.queue.js';
import { METADATA_QUEUE, type MetadataJob, type MetadataJobResult } from './metadata.queue.js';
import { NOTIFICATIONS_POLL_SCHEDULER, NOTIFICATIONS_QUEUE, type NotificationsJob, type NotificationsOutcome } from './notifications.queue.js';
import { URL_CHECK_QUEUE, type UrlCheckJob, type UrlVerdict } from './url-check.queue.js';
import { NIGHTLY_USAGE_ROLLUP_SCHEDULER, USAGE_ROLLUP_QUEUE, type RollupResult, type UsageRollupJob } from './usage-rollup.queue.js';

/**
 * Every queue of the service: the payload its jobs carry and the result they return. Each family's name, id
 * scheme, options and types are in its own `<family>.queue.ts`. Payloads carry ids, dates and URLs, never
 * whole rows or secrets. Producers (HTTP processes) use a connection that fails fast when Redis is down;
 * workers use one that waits (see connections.ts).
 */
export interface QueueContracts {
  [DATASET_QUEUE]: { data: DatasetBuildJob; result: DatasetBuildOutcome };
  [USAGE_ROLLUP_QUEUE]: { data: UsageRollupJob; result: RollupResult };
  [URL_CHECK_QUEUE]: { data: UrlCheckJob; result: UrlVerdict };
  [NOTIFICATIONS_QUEUE]: { data: NotificationsJob; result: NotificationsOutcome };
  [HOUSEKEEPING_QUEUE]: { data: HousekeepingJob; result: HousekeepingResult };
  [LINK_CHECK_PLAN_QUEUE]: { data: LinkCheckPlanJob; result: LinkCheckPlanResult };
  [LINK_CHECK_QUEUE]: { data: LinkCheckJob; result: LinkCheckJobResult };
  [METADATA_QUEUE]: { data: MetadataJob; result: MetadataJobResult };
}

export type QueueName = keyof QueueContracts;
export type JobData<N extends QueueName> = QueueContracts[N]['data'];
export type JobResult<N extends QueueName> = QueueContracts[N]['result'];

export const queueNames = {
  dataset: DATASET_QUEUE,
  usageRollup: USAGE_ROLLUP_QUEUE,
  urlCheck: URL_CHECK_QUEUE,
  notifications: NOTIFICATIONS_QUEUE,
  housekeeping: HOUSEKEEPING_QUEUE,
  linkCheckPlan: LINK_CHECK_PLAN_QUEUE,
  linkCheck: LINK_CHECK_QUEUE,
  metadata: METADATA_QUEUE,
} as const satisfies Record<string, QueueName>;

/** Stable, versioned scheduler ids: upserting them again on every start changes nothing. */
export const schedulerIds = {
  nightlyDatasetBuild: NIGHTLY_DATASET_BUILD_SCHEDULER,
  nightlyUsageRollup: NIGHTLY_USAGE_ROLLUP_SCHEDULER,
  notificationsPoll: NOTIFICATIONS_POLL_SCHEDULER,
  hourlyHousekeeping: HOURLY_HOUSEKEEPING_SCHEDULER,
  linkCheckPlan: LINK_CHECK_PLAN_SCHEDULER,
} as const;

export const defaultJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { count: 100 },
  removeOnFail: { count: 500 },
};

export function createQueue<N extends QueueName>(name: N, connection: Redis, prefix?: string): Queue<JobData<N>, JobResult<N>> {
  return new Queue<JobData<N>, JobResult<N>>(name, { connection, prefix, defaultJobOptions });
}
