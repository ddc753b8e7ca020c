import { isCalendarDate } from '../lib/calendar-date.js';
import type { Queue } from 'bullmq';

/**
 * The resolver dataset build (workers/dataset): nightly, after every registry change, and when the registry
 * area is asked for a dataset before the first build.
 */
export const DATASET_QUEUE = 'dataset-build';

// 'manual': an operator's (or a test's) job, typically with a date.
export type DatasetBuildReason = 'nightly' | 'registry-change' | 'first-request' | 'manual';

export interface DatasetBuildJob {
  /** Why the build was asked for: 'nightly', 'registry-change' or 'first-request'. */
  reason: DatasetBuildReason;
  /**
   * The date (YYYY-MM-DD) to keep the build under in the dated datasets instead of today (UTC): for a manual
   * build standing in for a day's (an operator's, a test's). Scheduled and change-triggered builds have none.
   */
  date?: string;
}

/** What a build job returns: the build it recorded, and whether it wrote files or found them current. */
export interface DatasetBuildOutcome {
  buildId: number;
  status: 'built' | 'skipped';
  registryVersion: number;
  namespaceCount: number;
  resourceCount: number;
  etag: string;
}

/** Stable and versioned: upserting it again on every start changes nothing. */
export const NIGHTLY_DATASET_BUILD_SCHEDULER = 'dataset-build:nightly:v1';

/** Deduplication id: one build waiting and one running at most, however many triggers arrive. */
export const DATASET_BUILD_DEDUP_ID = 'dataset-build';

/**
 * Why a payload can never be built from, or null. The reason is only recorded (dataset_builds.reason, at most
 * 40 characters), so any such text is built from, e.g. an operator's 'manual'.
 */
export function checkDatasetBuildJob(data: unknown): string | null {
  const reason = (data as { reason?: unknown } | null)?.reason;
  if (typeof reason !== 'string' || reason.length === 0 || reason.length > 40) return 'a dataset build job needs a reason of 1 to 40 characters';
  const date = (data as { date?: unknown }).date;
  if (date !== undefined && (typeof date !== 'string' || !isCalendarDate(date))) return "a dataset build job's date must be a date YYYY-MM-DD";
  return null;
}

/**
 * Options of every on-demand dataset build (registry change, first request): however many processes ask at
 * once, BullMQ keeps one build waiting and one running at most; an ask during a build runs once after it.
 */
export const datasetBuildJobOptions = {
  deduplication: { id: DATASET_BUILD_DEDUP_ID, keepLastIfActive: true },
} as const;

export async function requestDatasetBuild(queue: Queue<DatasetBuildJob>, reason: DatasetBuildJob['reason']): Promise<void> {
  await queue.add('build', { reason }, datasetBuildJobOptions);
}
