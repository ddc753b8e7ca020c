import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';

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
