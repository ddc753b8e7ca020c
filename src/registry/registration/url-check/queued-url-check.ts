import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../../../lib/logger.js';
import { queueNames, type UrlCheckJob } from '../../../queue/queues.js';
import { CheckStillRunningError, CheckUnavailableError, type UrlCheck } from '../checks.js';
import { URL_CHECK_JOB_NAME, urlCheckHash, urlCheckJobId, urlCheckJobOptions, urlVerdictKey } from './url-check-keys.js';
import { isUrlVerdict, type UrlVerdict } from './url-verdict.js';

export interface QueuedUrlCheckOptions {
  /**
   * The API process's fail-fast connection (createProducerRedis: no offline queue), so that a check fails at
   * once with CheckUnavailableError when Redis is away instead of waiting for it.
   */
  connection: Redis;
  /** QUEUE_PREFIX: the same as the workers'. */
  prefix: string;
  /** URL_CHECK_WAIT_MS: how long a check waits for the worker before CheckStillRunningError. */
  waitMs: number;
  /** URL_CHECK_CACHE_SECONDS: how long a finished job's verdict may be reused (the worker caches it as long). */
  cacheSeconds: number;
  /** How often a waiting check also reads the job's state, besides listening for its completion (default 1000 ms). */
  pollMs?: number;
  logger?: Logger;
}

export interface QueuedUrlCheck {
  urlCheck: UrlCheck;
  /** Stops listening for job events; the connection stays open (its owner closes it). */
  close: () => Promise<void>;
}

const unavailable = (cause?: unknown) =>
  new CheckUnavailableError('URL checks are unavailable right now (the job queue cannot be reached); please try again shortly', {
    cause,
  });

const stillRunning = (url: string) =>
  new CheckStillRunningError(`The check of URL ${url} is still running; please try again in a few seconds`);

/**
 * The UrlCheck of the API process: a cached verdict if there is one, else a job for the url-check worker and a
 * bounded wait for its verdict. Identical checks share one job (deterministic job id), so two validators, or
 * two clients, asking about one URL at once cause one fetch.
 */
export function createQueuedUrlCheck(options: QueuedUrlCheckOptions): QueuedUrlCheck {
  const { connection, prefix, waitMs, cacheSeconds, logger } = options;
  const pollMs = options.pollMs ?? 1000;
  const queue = new Queue<UrlCheckJob, UrlVerdict>(queueNames.urlCheck, { connection, prefix });
  queue.on('error', (error) => logger?.warn({ err: error }, 'url-check queue error'));

  // One listener on the shared connection, however many checks wait: a closed connection ends them all.
  const closeWaiters = new Set<() => void>();
  const onConnectionClose = () => {
    for (const waiter of [...closeWaiters]) waiter();
  };
  connection.on('close', onConnectionClose);

  // Waiting checks by job id: one 'completed' and one 'failed' listener serve them all.
  type Waiter = { completed: (returnvalue: unknown) => void; failed: (reason: string) => void };
  const jobWaiters = new Map<string, Set<Waiter>>();
  const notify = (jobId: string, call: (waiter: Waiter) => void) => {
    for (const waiter of [...(jobWaiters.get(jobId) ?? [])]) call(waiter);
  };

  // QueueEvents needs a blocking connection of its own (BullMQ duplicates the one given; a blocking one must
  // wait for Redis, maxRetriesPerRequest null). Created on the first check, so that an API process that never
  // validates holds no extra connection; the template itself never connects.
  let events: { queueEvents: QueueEvents; template: Redis } | undefined;
  const startQueueEvents = () => {
    if (events) return;
    const template = connection.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: true });
    const queueEvents = new QueueEvents(queueNames.urlCheck, { connection: template, prefix });
    queueEvents.on('error', (error) => logger?.debug({ err: error }, 'url-check queue events error'));
    queueEvents.on('completed', ({ jobId, returnvalue }) => notify(jobId, (w) => w.completed(returnvalue)));
    queueEvents.on('failed', ({ jobId, failedReason }) => notify(jobId, (w) => w.failed(failedReason)));
    events = { queueEvents, template };
  };

  const readCachedVerdict = async (key: string): Promise<UrlVerdict | undefined> => {
    const cached = await connection.get(key);
    if (cached === null) return undefined;
    try {
      const parsed: unknown = JSON.parse(cached);
      return isUrlVerdict(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  };

  /** The job's own outcome when it has one: its verdict, 'failed', or undefined while waiting or running. */
  const readJobOutcome = async (jobId: string): Promise<UrlVerdict | 'failed' | undefined> => {
    const job = await queue.getJob(jobId);
    if (!job) return undefined;
    const state = await job.getState();
    if (state === 'completed' && isUrlVerdict(job.returnvalue)) return job.returnvalue;
    if (state === 'failed') return 'failed';
    return undefined;
  };

  /**
   * Waits for the job's verdict until the deadline. Settles on the first of: the completion event, a poll
   * that finds the verdict (covers an event missed while QueueEvents was starting), the job failing for good,
   * the connection closing (Redis went away: no hang until the deadline), or the deadline.
   */
  const awaitVerdict = (url: string, jobId: string, key: string, deadline: number): Promise<UrlVerdict> =>
    new Promise<UrlVerdict>((resolve, reject) => {
      startQueueEvents();
      let done = false;
      let polling = false;
      // Both fire only after this executor has run, when everything they call is defined.
      const timer = setTimeout(() => finish(() => reject(stillRunning(url))), Math.max(0, deadline - Date.now()));
      const poller = setInterval(() => void poll(), pollMs);
      const waiter: Waiter = {
        completed: (returnvalue) => {
          if (isUrlVerdict(returnvalue)) finish(() => resolve(returnvalue));
        },
        failed: (reason) => finish(() => reject(unavailable(new Error(reason)))),
      };
      const onClose = () => finish(() => reject(unavailable(new Error('Redis connection closed'))));
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        clearInterval(poller);
        const waiters = jobWaiters.get(jobId);
        waiters?.delete(waiter);
        if (waiters?.size === 0) jobWaiters.delete(jobId);
        closeWaiters.delete(onClose);
        settle();
      };
      const poll = async () => {
        if (polling || done) return;
        polling = true;
        try {
          const outcome = (await readCachedVerdict(key)) ?? (await readJobOutcome(jobId));
          if (outcome === 'failed') finish(() => reject(unavailable(new Error('the URL check job failed'))));
          else if (outcome) finish(() => resolve(outcome));
        } catch (error) {
          finish(() => reject(unavailable(error)));
        } finally {
          polling = false;
        }
      };
      const waiters = jobWaiters.get(jobId) ?? new Set<Waiter>();
      waiters.add(waiter);
      jobWaiters.set(jobId, waiters);
      closeWaiters.add(onClose);
      void poll();
    });

  /** Races a Redis step with the deadline: a command never holds a validation past the wait bound. */
  const beforeDeadline = <T>(url: string, deadline: number, step: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(stillRunning(url)), Math.max(0, deadline - Date.now()));
      step.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof CheckStillRunningError ? error : unavailable(error));
        },
      );
    });

  const enqueue = async (data: UrlCheckJob, jobId: string): Promise<UrlVerdict | undefined> => {
    // A finished job with this id would make the add a no-op and leave nothing to wait for: reuse its verdict
    // while fresh, else remove it so that the URL is fetched again.
    const existing = await queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      const fresh = existing.finishedOn !== undefined && Date.now() - existing.finishedOn < cacheSeconds * 1000;
      if (state === 'completed' && fresh && isUrlVerdict(existing.returnvalue)) return existing.returnvalue;
      if (state === 'completed' || state === 'failed') await existing.remove();
    }
    await queue.add(URL_CHECK_JOB_NAME, data, urlCheckJobOptions(jobId, cacheSeconds));
    return undefined;
  };

  /**
   * Fails fast when the connection is down (it would only refuse each command in turn), but lets a connection
   * that is still being opened for the first time finish doing so.
   */
  const whenConnected = async (deadline: number): Promise<void> => {
    const { status } = connection;
    if (status === 'ready') return;
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') {
      throw unavailable(new Error(`Redis connection is ${status}`));
    }
    if (status === 'wait') connection.connect().catch(() => undefined);
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        connection.off('ready', onReady);
        closeWaiters.delete(onClose);
        if (error) reject(unavailable(error));
        else resolve();
      };
      const onReady = () => settle();
      const onClose = () => settle(new Error('Redis connection closed'));
      const timer = setTimeout(() => settle(new Error('Redis connection not ready')), Math.max(0, deadline - Date.now()));
      connection.once('ready', onReady);
      closeWaiters.add(onClose);
    });
  };

  const urlCheck: UrlCheck = async (url, { isProtected }) => {
    const deadline = Date.now() + waitMs;
    await whenConnected(deadline);
    const hash = urlCheckHash(url, isProtected);
    const key = urlVerdictKey(prefix, hash);
    const jobId = urlCheckJobId(hash);
    const verdict =
      (await beforeDeadline(url, deadline, readCachedVerdict(key))) ??
      (await beforeDeadline(url, deadline, enqueue({ url, isProtected }, jobId))) ??
      (await awaitVerdict(url, jobId, key, deadline));
    return verdict.ok ? null : verdict.message;
  };

  return {
    urlCheck,
    close: async () => {
      connection.off('close', onConnectionClose);
      if (events) {
        await events.queueEvents.close().catch(() => undefined);
        events.template.disconnect();
      }
      await queue.close().catch(() => undefined);
    },
  };
}
