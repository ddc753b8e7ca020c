import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';

/**
 * Live URL checks of registration validation: the API process enqueues, the url-check worker fetches (the
 * API process never fetches a user-supplied URL) and caches the verdict where the API process polls for it.
 */
export const URL_CHECK_QUEUE = 'url-check';

export interface UrlCheckJob {
  /** The URL to fetch, exactly as the validator built it (sample URL or home URL). */
  url: string;
  /** Resources behind a login: 401, 403, 407 and 451 also count as working. */
  isProtected: boolean;
}

/** What a live URL check concludes; stored in the verdict cache and returned by the job. */
export type UrlVerdict = { ok: true } | { ok: false; message: string };

export function isUrlVerdict(value: unknown): value is UrlVerdict {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as { ok?: unknown; message?: unknown };
  return v.ok === true || (v.ok === false && typeof v.message === 'string');
}

/** Why a payload can never be checked, or null. */
export function checkUrlCheckJob(data: unknown): string | null {
  const { url, isProtected } = (data ?? {}) as { url?: unknown; isProtected?: unknown };
  if (typeof url !== 'string' || url === '') return 'a URL check job needs the URL to fetch';
  if (typeof isProtected !== 'boolean') return 'a URL check job needs isProtected (true or false)';
  return null;
}

/**
 * Names shared by the producer (validators, in the API process) and the url-check worker: the same URL asked
 * with the same protection flag maps to one job id and one cached verdict, so concurrent identical checks
 * share one fetch and a repeated check within the cache time costs none.
 */
export function urlCheckHash(url: string, isProtected: boolean): string {
  return createHash('sha256').update(`${isProtected ? 'protected' : 'public'}\n${url}`).digest('hex');
}

/** BullMQ refuses custom ids with one `:` in them, hence the dash. */
export function urlCheckJobId(hash: string): string {
  return `url-check-${hash}`;
}

/** Under the queue prefix, so that deployments (and tests) sharing a Redis keep their verdicts apart. */
export function urlVerdictKey(prefix: string, hash: string): string {
  return `${prefix}:url-verdict:${hash}`;
}

export const URL_CHECK_JOB_NAME = 'check';

/**
 * Attempts are for infrastructure failures only (a worker dying mid-check, Redis going away while the
 * verdict is stored): a URL that does not work is a verdict, not a failed job. A completed job is kept no
 * longer than its verdict is cached, so a later check after the cache expiry fetches again.
 */
export function urlCheckJobOptions(jobId: string, cacheSeconds: number): JobsOptions {
  return {
    jobId,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: cacheSeconds, count: 1000 },
    removeOnFail: { age: 24 * 3600, count: 1000 },
  };
}
