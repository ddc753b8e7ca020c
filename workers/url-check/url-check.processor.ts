import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { FetchForCheckResult } from '../../src/lib/http-client.js';
import type { Logger } from '../../src/lib/logger.js';
import { checkUrlCheckJob, urlCheckHash, urlVerdictKey, type UrlCheckJob, type UrlVerdict } from '../../src/queue/url-check.queue.js';
import { refuseUnprocessable } from '../job-family.js';
import { verdictFor } from './url-verdict.js';

export interface UrlCheckProcessorDeps {
  /** The guarded fetcher with the service's limits (fetchForCheck bound to the settings). */
  fetch: (url: string) => Promise<FetchForCheckResult>;
  /** Where the verdict is cached for the producers. */
  redis: Redis;
  /** QUEUE_PREFIX. */
  prefix: string;
  /** URL_CHECK_CACHE_SECONDS. */
  cacheSeconds: number;
  /** URL_CHECK_TIMEOUT_MS, for the message of a check that timed out. */
  timeoutMs: number;
  logger?: Logger;
}

/**
 * Fetches the URL once and stores the verdict where validators look first. Idempotent: a second run (a retry
 * after a worker died) fetches again and overwrites the same key. A URL that does not work is a verdict, never
 * a thrown error; only infrastructure failures (the cache write) throw, and BullMQ retries those. A payload
 * without a URL fails at once (UnrecoverableError).
 */
export async function processUrlCheck(deps: UrlCheckProcessorDeps, job: Pick<Job<UrlCheckJob>, 'data'>): Promise<UrlVerdict> {
  refuseUnprocessable(checkUrlCheckJob(job.data));
  const { url, isProtected } = job.data;
  const result = await deps.fetch(url);
  const verdict = verdictFor(url, isProtected, result, deps.timeoutMs);
  await deps.redis.set(urlVerdictKey(deps.prefix, urlCheckHash(url, isProtected)), JSON.stringify(verdict), 'EX', deps.cacheSeconds);
  deps.logger?.debug({ url, isProtected, ok: verdict.ok, status: result.ok ? result.status : result.failure.kind }, 'URL checked');
  return verdict;
}
