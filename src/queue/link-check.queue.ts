import type { JobsOptions } from 'bullmq';
import type { LinkCheckUrlKind } from '../db/tables.js';

/**
 * Link checking (issue 12): the schedule's job plans a run (link-check-plan), and the run is one job per
 * (run, resource, URL kind) on link-check, spread over LINKCHECK_INTERVAL by each job's delay.
 */
export const LINK_CHECK_PLAN_QUEUE = 'link-check-plan';
export const LINK_CHECK_QUEUE = 'link-check';

/** Stable and versioned: upserting it again on every start changes nothing. Only while LINKCHECK_ENABLED. */
export const LINK_CHECK_PLAN_SCHEDULER = 'link-check:plan:v1';

export interface LinkCheckPlanJob {
  /** 'scheduled' (the scheduler) or 'manual'. */
  reason: 'scheduled' | 'manual';
}

export interface LinkCheckPlanResult {
  runId: string;
  planned: number;
}

export interface LinkCheckJob {
  runId: string;
  resourceId: number;
  urlKind: LinkCheckUrlKind;
  /** The URL to check, or null when none could be built (stored as skipped, with `skipReason`). */
  url: string | null;
  skipReason?: string;
  /** The resource's protectedUrls: 401 and 403 on its sample URL count as up (`protected`). */
  isProtected: boolean;
  /**
   * Where the check is: HEAD first, then GET when HEAD did not settle it. Each request is its own turn at the
   * host's politeness lease, so the job goes back to the delayed set between them.
   */
  phase?: 'head' | 'get';
  /** How many times a Retry-After answer has put the check off (at most LINK_CHECK_MAX_DEFERRALS). */
  deferrals?: number;
}

export type LinkCheckJobResult = { stored: boolean; outcome: string };

export const LINK_CHECK_JOB_NAME = 'check';

/** BullMQ refuses custom ids with one `:` in them, hence the dashes. One id per (run, resource, URL kind). */
export function linkCheckJobId(runId: string, resourceId: number, urlKind: LinkCheckUrlKind): string {
  return `link-check-${runId}-${resourceId}-${urlKind}`;
}

/** Why a payload can never be checked, or null. */
export function checkLinkCheckJob(data: unknown): string | null {
  const d = (data ?? {}) as Partial<Record<keyof LinkCheckJob, unknown>>;
  if (typeof d.runId !== 'string' || d.runId === '') return 'a link check job needs its run id';
  if (typeof d.resourceId !== 'number' || !Number.isInteger(d.resourceId)) return 'a link check job needs the resource id';
  if (d.urlKind !== 'sample' && d.urlKind !== 'home') return 'a link check job needs the URL kind (sample or home)';
  if (d.url !== null && typeof d.url !== 'string') return 'a link check job needs the URL (or null)';
  if (typeof d.isProtected !== 'boolean') return 'a link check job needs isProtected (true or false)';
  return null;
}

/**
 * Attempts are for infrastructure failures (a worker killed mid-check, Postgres away while the result is
 * stored): a URL that does not work is a result, not a failed job. Completed jobs are kept two days, longer
 * than any run is planned over by default, so that re-planning the same run finds their ids and adds nothing.
 */
export const linkCheckJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 5000 },
  removeOnComplete: { age: 2 * 86_400, count: 100_000 },
  removeOnFail: { age: 7 * 86_400, count: 10_000 },
};

/** A plan that fails (Postgres away) is tried again soon; no long history of a daily job is kept. */
export const linkCheckPlanJobOptions: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 30_000 },
  removeOnComplete: { count: 30 },
  removeOnFail: { count: 30 },
};
