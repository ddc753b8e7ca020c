import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { urlRefusal, type PageFetchResult } from '../../src/lib/http-client.js';
import type { Logger } from '../../src/lib/logger.js';
import {
  checkMetadataJob,
  encodeMetadataAnswer,
  metadataAnswerKey,
  metadataHash,
  type MetadataJob,
  type MetadataJobResult,
  type StoredMetadataAnswer,
} from '../../src/queue/metadata.queue.js';
import { refuseUnprocessable } from '../job-family.js';
import type { HostLeases } from '../link-check/host-lease.js';
import type { PageMetadata } from './extract-metadata.js';
import { metadataAnswer } from './metadata-answer.js';

export interface MetadataProcessorDeps {
  /** The guarded page fetcher with the service's limits (fetchPage bound to the settings). */
  fetch: (url: string) => Promise<PageFetchResult>;
  extract: (html: string, pageUrl: string) => Promise<PageMetadata>;
  /** Per-host politeness across every worker process (HostLeases of the 'metadata' family). */
  leases: Pick<HostLeases, 'acquire'>;
  /** Where the answer is stored for the resolver. */
  redis: Redis;
  /** QUEUE_PREFIX. */
  prefix: string;
  /** METADATA_CACHE_SECONDS: how long a 200 is kept. */
  cacheSeconds: number;
  /** METADATA_ERROR_CACHE_SECONDS: how long any other answer is kept. */
  errorCacheSeconds: number;
  /** METADATA_TIMEOUT_MS, for the message of a fetch that timed out. */
  timeoutMs: number;
  logger?: Logger;
  now?: () => number;
}

/** What a run of the processor comes to: the job is done, or must wait for its host until `at` (epoch ms). */
export type MetadataStep = { done: MetadataJobResult } | { later: { at: number } };

/**
 * Fetches the page once (when its host has a free place: otherwise the job is put off, holding no worker
 * place meanwhile) and stores the answer where the resolver polls for it. Idempotent: a retry fetches again
 * and overwrites the same key. A page that cannot be fetched is an answer, never a thrown error; only the
 * cache write throws, and BullMQ retries that. A URL the rules refuse is answered without a lease.
 */
export async function processMetadata(deps: MetadataProcessorDeps, job: Pick<Job<MetadataJob>, 'data'>): Promise<MetadataStep> {
  refuseUnprocessable(checkMetadataJob(job.data));
  const now = deps.now ?? Date.now;
  const { url } = job.data;
  let answer: StoredMetadataAnswer;
  const refusal = urlRefusal(url);
  if (refusal !== null) {
    answer = await metadataAnswer(url, { ok: false, failure: { kind: 'refused', url, reason: refusal }, finalUrl: url, method: 'GET', latencyMs: 0 }, now(), deps.timeoutMs, deps.extract);
  } else {
    const lease = await deps.leases.acquire(new URL(url).host);
    // A little jitter, so that the jobs put off together do not all come back at once.
    if (!lease.granted) return { later: { at: now() + lease.waitMs + Math.floor(Math.random() * 100) } };
    let result: PageFetchResult;
    try {
      result = await deps.fetch(url);
    } finally {
      await lease.release().catch(() => undefined);
    }
    answer = await metadataAnswer(url, result, now(), deps.timeoutMs, deps.extract);
  }
  const seconds = answer.status === 200 ? deps.cacheSeconds : deps.errorCacheSeconds;
  await deps.redis.set(metadataAnswerKey(deps.prefix, metadataHash(url)), encodeMetadataAnswer(answer), 'EX', seconds);
  deps.logger?.debug({ url, status: answer.status }, 'page metadata fetched');
  return { done: { status: answer.status } };
}
