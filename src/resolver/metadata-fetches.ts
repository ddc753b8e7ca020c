import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../lib/logger.js';
import { withTimeout } from '../lib/with-timeout.js';
import {
  decodeMetadataAnswer,
  METADATA_JOB_NAME,
  metadataAnswerKey,
  metadataHash,
  metadataJobId,
  metadataJobOptions,
  type MetadataJob,
  type MetadataJobResult,
  type StoredMetadataAnswer,
} from '../queue/metadata.queue.js';
import { queueNames } from '../queue/queues.js';

export interface MetadataFetchesOptions {
  /** The resolver's fail-fast connection (createProducerRedis); its owner closes it. */
  connection: Redis;
  /** QUEUE_PREFIX: the same as the workers'. */
  prefix: string;
  /** METADATA_WAIT_MS: how long a lookup waits for the worker before it answers 'pending'. */
  waitMs: number;
  /** METADATA_ERROR_CACHE_SECONDS: a finished job is kept this long (its answer is in the cache key). */
  keepSeconds: number;
  /** How often a waiting lookup looks for the answer (default 100 ms); the job itself is read every 5th time. */
  pollMs?: number;
  logger?: Logger;
}

export type MetadataLookup =
  | { kind: 'answer'; answer: StoredMetadataAnswer }
  /** The worker had not answered by the deadline; the fetch goes on and the answer will be in the cache. */
  | { kind: 'pending' }
  /** Redis or the queue cannot be reached, the queue is full, or the job failed for good; `reason` says which, for the client. */
  | { kind: 'unavailable'; reason: string };

/**
 * Pages waiting for a worker (their jobs waiting or put off for their host) past which a lookup of a page
 * not asked for yet answers 'unavailable' instead of adding one more: whatever clients ask, the queue and the
 * work it stands for stay bounded.
 */
export const MAX_QUEUED_FETCHES = 1000;

const UNREACHABLE = 'the job queue cannot be reached';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The resolver's side of provider metadata: the stored answer for a URL if there is one, else a job for the
 * metadata worker (one per URL, by a deterministic job id, so that concurrent lookups of a page share one
 * fetch) and a bounded wait for its answer. The wait polls the answer's key on the fail-fast connection, as
 * registration's URL checks do (queued-url-check.ts says why not QueueEvents); each Redis step is bounded by
 * the deadline too. The BullMQ queue is made on the first lookup, so that a resolver nobody asks for
 * metadata writes nothing to Redis.
 */
class QueueFullError extends Error {
  constructor() {
    super(`${MAX_QUEUED_FETCHES} pages are already waiting to be fetched`);
  }
}

export class MetadataFetches {
  private queue: Queue<MetadataJob, MetadataJobResult> | undefined;
  private closed = false;
  private readonly pollMs: number;

  constructor(private readonly options: MetadataFetchesOptions) {
    this.pollMs = options.pollMs ?? 100;
  }

  private queueOf(): Queue<MetadataJob, MetadataJobResult> {
    if (!this.queue) {
      const { connection, prefix, logger } = this.options;
      this.queue = new Queue<MetadataJob, MetadataJobResult>(queueNames.metadata, { connection, prefix });
      this.queue.on('error', (error) => logger?.warn({ err: error }, 'metadata queue error'));
    }
    return this.queue;
  }

  private async readAnswer(key: string, deadline: number): Promise<StoredMetadataAnswer | undefined> {
    const text = await withTimeout(this.options.connection.get(key), Math.max(1, deadline - Date.now()), 'Redis');
    return text === null ? undefined : decodeMetadataAnswer(text);
  }

  /**
   * Adds the job unless one with its id is waiting, delayed or running. A finished one is replaced, unless
   * it finished since the cache was read: then its answer is there now, and is returned.
   */
  private async enqueue(url: string, jobId: string, key: string, deadline: number): Promise<StoredMetadataAnswer | undefined> {
    const queue = this.queueOf();
    const step = <T>(promise: Promise<T>) => withTimeout(promise, Math.max(1, deadline - Date.now()), 'Redis');
    const existing = await step(queue.getJob(jobId));
    if (existing) {
      const state = await step(existing.getState());
      if (state !== 'completed' && state !== 'failed' && state !== 'unknown') return undefined;
      if (state === 'completed') {
        const answer = await this.readAnswer(key, deadline);
        if (answer) return answer;
      }
      // Another lookup may have removed it first; the add below is then all that is needed.
      await step(existing.remove()).catch((error: unknown) => this.options.logger?.debug({ err: error, jobId }, 'finished metadata job already gone'));
    }
    const queued = await step(queue.getJobCountByTypes('waiting', 'delayed', 'prioritized'));
    if (queued >= MAX_QUEUED_FETCHES) throw new QueueFullError();
    await step(queue.add(METADATA_JOB_NAME, { url }, metadataJobOptions(jobId, this.options.keepSeconds)));
    return undefined;
  }

  /** The job's state, when it ended without an answer ('failed') or is gone ('missing'). */
  private async jobTrouble(jobId: string, deadline: number): Promise<'failed' | 'missing' | undefined> {
    const job = await withTimeout(this.queueOf().getJob(jobId), Math.max(1, deadline - Date.now()), 'Redis');
    if (!job) return 'missing';
    return (await job.getState()) === 'failed' ? 'failed' : undefined;
  }

  async lookup(url: string): Promise<MetadataLookup> {
    const { connection, prefix, waitMs } = this.options;
    const deadline = Date.now() + waitMs;
    if (this.closed || connection.status !== 'ready') return { kind: 'unavailable', reason: UNREACHABLE };
    const hash = metadataHash(url);
    const key = metadataAnswerKey(prefix, hash);
    const jobId = metadataJobId(hash);
    try {
      const cached = await this.readAnswer(key, deadline);
      if (cached) return { kind: 'answer', answer: cached };
      const justFinished = await this.enqueue(url, jobId, key, deadline);
      if (justFinished) return { kind: 'answer', answer: justFinished };
      for (let round = 1; Date.now() < deadline && !this.closed; round += 1) {
        await sleep(Math.min(this.pollMs, Math.max(0, deadline - Date.now())));
        const answer = await this.readAnswer(key, deadline);
        if (answer) return { kind: 'answer', answer };
        if (round % 5 !== 0 || Date.now() >= deadline) continue;
        const trouble = await this.jobTrouble(jobId, deadline);
        if (trouble === 'failed') return { kind: 'unavailable', reason: 'the fetch failed in the worker' };
        // Removed meanwhile (by an operator, or a late cleanup): ask again rather than wait for nothing.
        if (trouble === 'missing') {
          const answer = await this.enqueue(url, jobId, key, deadline);
          if (answer) return { kind: 'answer', answer };
        }
      }
    } catch (error) {
      if (error instanceof QueueFullError) return { kind: 'unavailable', reason: error.message };
      // Past the deadline a slow step is the same as no answer yet: the fetch goes on in the worker.
      if (Date.now() >= deadline && !this.closed && connection.status === 'ready') return { kind: 'pending' };
      this.options.logger?.warn({ err: error, url }, 'metadata lookup failed');
      return { kind: 'unavailable', reason: UNREACHABLE };
    }
    return this.closed ? { kind: 'unavailable', reason: 'the resolver is stopping' } : { kind: 'pending' };
  }

  /** Ends waiting lookups (unavailable) and closes the queue; the connection stays open. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue?.close().catch(() => undefined);
  }
}
