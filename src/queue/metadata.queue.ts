import { createHash } from 'node:crypto';
import type { JobsOptions } from 'bullmq';

/**
 * Provider page metadata (issue 25, item 3): the resolver area enqueues the URL of a provider page, the
 * metadata worker fetches it through the guarded HTTP client, extracts its metadata and stores the answer
 * where the resolver polls for it (the resolver process never fetches a page itself).
 */
export const METADATA_QUEUE = 'metadata';

export const METADATA_JOB_NAME = 'fetch';

export interface MetadataJob {
  /** The page to fetch: a provider URL the resolver resolved, or a URL a client asked about. */
  url: string;
}

/** The job's own result: the HTTP status of the stored answer (the answer itself is in the cache key only). */
export interface MetadataJobResult {
  status: number;
}

/** Why a payload can never be processed, or null. */
export function checkMetadataJob(data: unknown): string | null {
  const { url } = (data ?? {}) as { url?: unknown };
  if (typeof url !== 'string' || url === '') return 'a metadata job needs the URL of the page to fetch';
  return null;
}

/** One job id and one cached answer per URL: concurrent requests for a page share one fetch. */
export function metadataHash(url: string): string {
  return createHash('sha256').update(url).digest('hex');
}

/** BullMQ refuses custom ids with one `:` in them, hence the dash. */
export function metadataJobId(hash: string): string {
  return `metadata-${hash}`;
}

/** Under the queue prefix, so that deployments (and tests) sharing a Redis keep their answers apart. */
export function metadataAnswerKey(prefix: string, hash: string): string {
  return `${prefix}:metadata-answer:${hash}`;
}

/**
 * Attempts are for infrastructure failures only (a worker dying mid-fetch, Redis going away while the
 * answer is stored): a page that cannot be fetched is an answer (502, 422, ...), not a failed job.
 */
export function metadataJobOptions(jobId: string, keepSeconds: number): JobsOptions {
  return {
    jobId,
    attempts: 3,
    backoff: { type: 'exponential', delay: 1000 },
    removeOnComplete: { age: keepSeconds, count: 1000 },
    removeOnFail: { age: 3600, count: 1000 },
  };
}

/**
 * A stored answer: its HTTP status, when the page was fetched, the envelope's errorMessage and the payload
 * as JSON text. Stored as text with a two-line head (`status fetchedAtMs`, then the errorMessage as JSON) so
 * that the resolver serves an answer without parsing the payload, which may hold up to the body limit of a
 * page's JSON-LD: JSON never holds a raw line break, so the first two line breaks are the head's.
 */
export interface StoredMetadataAnswer {
  status: number;
  fetchedAtMs: number;
  errorMessage: string | null;
  payloadJson: string;
}

export function encodeMetadataAnswer(answer: StoredMetadataAnswer): string {
  return `${answer.status} ${answer.fetchedAtMs}\n${JSON.stringify(answer.errorMessage)}\n${answer.payloadJson}`;
}

/** The stored answer, or undefined for text that is not one (a key written by something else). */
export function decodeMetadataAnswer(text: string): StoredMetadataAnswer | undefined {
  const first = text.indexOf('\n');
  const second = first === -1 ? -1 : text.indexOf('\n', first + 1);
  if (second === -1) return undefined;
  const head = /^(\d{3}) (\d{1,15})$/.exec(text.slice(0, first));
  if (!head) return undefined;
  let errorMessage: unknown;
  try {
    errorMessage = JSON.parse(text.slice(first + 1, second));
  } catch {
    return undefined;
  }
  if (errorMessage !== null && typeof errorMessage !== 'string') return undefined;
  return { status: Number(head[1]), fetchedAtMs: Number(head[2]), errorMessage, payloadJson: text.slice(second + 1) };
}
