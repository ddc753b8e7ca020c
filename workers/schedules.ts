import type { JobsOptions, JobSchedulerTemplateOptions, RepeatOptions } from 'bullmq';
import type { Config } from '../src/config.js';
import { parseDuration } from '../src/lib/duration.js';
import { linkCheckPlanJobOptions } from '../src/queue/link-check.queue.js';
import { defaultJobOptions, queueNames, schedulerIds, type JobData, type QueueName } from '../src/queue/queues.js';

/** One job scheduler of the service: which queue, when (UTC), and the job it makes (a payload of that queue). */
export type JobSchedule = { [N in QueueName]: ScheduleOf<N> }[QueueName];

interface ScheduleOf<N extends QueueName> {
  /** Stable and versioned (schedulerIds): upserting it again changes nothing. */
  id: string;
  queue: N;
  repeat: Omit<RepeatOptions, 'key'>;
  template: { name: string; data: JobData<N>; opts?: JobSchedulerTemplateOptions };
  /**
   * Runs lost while the scheduler was missing would lose data: when the scheduler has to be created (a
   * first start, or a Redis that came back empty), the job is also added once at once, with these options.
   */
  catchUp?: JobsOptions;
  /** Turned off by a setting: removed from Redis when a worker starts, and never put back. */
  off?: boolean;
}

/**
 * Every job schedule of the service in one list: workers upsert them all at start and put back any that
 * Redis lost (schedule-keeper.ts), in one loop. A new scheduled job family adds its line here.
 */
export function jobSchedules(config: Pick<Config, 'NOTIFICATION_POLL_INTERVAL_MS' | 'LINKCHECK_ENABLED' | 'LINKCHECK_INTERVAL'>): JobSchedule[] {
  return [
    {
      id: schedulerIds.nightlyDatasetBuild,
      queue: queueNames.dataset,
      repeat: { pattern: '0 2 * * *', tz: 'UTC' },
      template: { name: 'nightly', data: { reason: 'nightly' }, opts: defaultJobOptions },
    },
    {
      // 00:30 UTC, after the day has ended everywhere it is counted.
      id: schedulerIds.nightlyUsageRollup,
      queue: queueNames.usageRollup,
      repeat: { pattern: '30 0 * * *', tz: 'UTC' },
      template: { name: 'nightly', data: {} },
      // Finished days wait in Redis only USAGE_KEY_TTL_SECONDS: a rollup that nights without a scheduler
      // skipped runs at once. One catch-up waiting at a time, and none kept in the job history.
      catchUp: { deduplication: { id: `${schedulerIds.nightlyUsageRollup}:catch-up` }, removeOnComplete: true, removeOnFail: { count: 100 } },
    },
    {
      id: schedulerIds.notificationsPoll,
      queue: queueNames.notifications,
      // A scheduler with `every` makes its first job at once, so a re-created poll needs no catch-up.
      repeat: { every: config.NOTIFICATION_POLL_INTERVAL_MS },
      // A run that fails is simply the next run's work: no retries, and no history kept of a job every few seconds.
      template: { name: 'poll', data: { reason: 'poll' }, opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 100 } } },
    },
    {
      id: schedulerIds.hourlyHousekeeping,
      queue: queueNames.housekeeping,
      repeat: { pattern: '15 * * * *', tz: 'UTC' },
      template: { name: 'hourly', data: { reason: 'hourly' } },
    },
    {
      // Only where the operator turned link checking on: tests, benchmarks and a developer's npm start never
      // send requests to the real providers. `every` plans the first run as soon as the scheduler is made.
      id: schedulerIds.linkCheckPlan,
      queue: queueNames.linkCheckPlan,
      repeat: { every: parseDuration(config.LINKCHECK_INTERVAL) ?? 86_400_000 },
      template: { name: 'scheduled', data: { reason: 'scheduled' }, opts: linkCheckPlanJobOptions },
      off: !config.LINKCHECK_ENABLED,
    },
  ];
}
