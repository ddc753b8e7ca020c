import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from '../../../lib/logger.js';
import { queueNames } from '../../../queue/queues.js';
import {
  isUrlVerdict,
  URL_CHECK_JOB_NAME,
  urlCheckHash,
  urlCheckJobId,
  urlCheckJobOptions,
  urlVerdictKey,
  type UrlCheckJob,
  type UrlVerdict,
} from '../../../queue/url-check.queue.js';
import { CheckStillRunningError, CheckUnavailableError, type UrlCheck } from '../../model/registration-checks.js';

export interface QueuedUrlCheckOptions {
  /**
   * The API process's fail-fast connection (createProducerRedis: no offline queue), so that a check fails at
   * once with CheckUnavailableError when Redis is away instead of waiting for it. Its owner closes it.
   */
  connection: Redis;
  /** QUEUE_PREFIX: the same as the workers'. */
  prefix: string;
  /** URL_CHECK_WAIT_MS: how long a check waits for the worker before CheckStillRunningError. */
  waitMs: number;
  /** URL_CHECK_CACHE_SECONDS: how long a finished job's verdict may be reused (the worker caches it as long). */
  cacheSeconds: number;
  /** How often a waiting check looks for its verdict (default 200 ms); the job itself is read every 5th time. */
  pollMs?: number;
  logger?: Logger;
}

export interface QueuedUrlCheck {
  urlCheck: UrlCheck;
  /** Ends waiting checks (CheckUnavailableError) and closes the queue; the connection stays open. */
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
 *
 * The wait polls the verdict key on the fail-fast connection rather than listening through BullMQ's
 * QueueEvents: that needs a blocking connection that waits for Redis forever (maxRetriesPerRequest null), and
 * when Redis went away while it was starting, closing it hung (seen in url-check-faults.test.ts). A poll
 * fails at once instead, which is what a validation waiting on a client needs.
 */
export function createQueuedUrlCheck(options: QueuedUrlCheckOptions): QueuedUrlCheck {
  const { connection, prefix, waitMs, cacheSeconds, logger } = options;
  const pollMs = options.pollMs ?? 200;
  const queue = new Queue<UrlCheckJob, UrlVerdict>(queueNames.urlCheck, { connection, prefix });
  queue.on('error', (error) => logger?.warn({ err: error }, 'url-check queue error'));

  // One listener on the shared connection, however many checks wait: a closed connection ends them all.
  const closeWaiters = new Set<() => void>();
  const onConnectionClose = () => {
    for (const waiter of [...closeWaiters]) waiter();
  };
  connection.on('close', onConnectionClose);

  /** Runs `wait` until it settles, the deadline passes (CheckStillRunningError) or the connection closes. */
  const bounded = <T>(url: string, deadline: number, wait: (settle: (outcome: () => T) => void) => () => void): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      let done = false;
      const cleanup = { stop: () => undefined as void };
      const settle = (outcome: () => T) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        closeWaiters.delete(onClose);
        cleanup.stop();
        try {
          resolve(outcome());
        } catch (error) {
          reject(error instanceof CheckStillRunningError || error instanceof CheckUnavailableError ? error : unavailable(error));
        }
      };
      const onClose = () =>
        settle(() => {
          throw unavailable(new Error('Redis connection closed'));
        });
      const timer = setTimeout(
        () =>
          settle(() => {
            throw stillRunning(url);
          }),
        Math.max(0, deadline - Date.now()),
      );
      closeWaiters.add(onClose);
      const stop = wait(settle);
      if (done) stop();
      else cleanup.stop = stop;
    });

  /** A Redis step that never holds a validation past the wait bound, nor past the connection closing. */
  const step = <T>(url: string, deadline: number, run: () => Promise<T>): Promise<T> =>
    bounded<T>(url, deadline, (settle) => {
      run().then(
        (value) => settle(() => value),
        (error: unknown) =>
          settle(() => {
            throw unavailable(error);
          }),
      );
      return () => undefined;
    });

  /**
   * Fails fast when the connection is down (it would only refuse each command in turn), but lets a connection
   * that is still being opened for the first time finish doing so.
   */
  const whenConnected = async (url: string, deadline: number): Promise<void> => {
    const { status } = connection;
    if (status === 'ready') return;
    if (status !== 'wait' && status !== 'connecting' && status !== 'connect') {
      throw unavailable(new Error(`Redis connection is ${status}`));
    }
    if (status === 'wait') connection.connect().catch(() => undefined);
    await bounded<void>(url, deadline, (settle) => {
      const onReady = () => settle(() => undefined);
      connection.once('ready', onReady);
      return () => connection.off('ready', onReady);
    }).catch((error: unknown) => {
      // Not even connected by the deadline: Redis is not there, whatever the wait bound says.
      throw error instanceof CheckStillRunningError ? unavailable(new Error('Redis connection not ready')) : error;
    });
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

  /** The job's own outcome: its verdict, 'failed', 'missing', or undefined while it waits or runs. */
  const readJobOutcome = async (jobId: string): Promise<UrlVerdict | 'failed' | 'missing' | undefined> => {
    const job = await queue.getJob(jobId);
    if (!job) return 'missing';
    const state = await job.getState();
    if (state === 'completed' && isUrlVerdict(job.returnvalue)) return job.returnvalue;
    if (state === 'failed') return 'failed';
    return undefined;
  };

  /**
   * Adds the job unless one with its id is waiting or running (then this check shares it). A finished job
   * with this id would make the add a no-op and leave nothing to wait for: its verdict is reused while fresh,
   * else it is removed so that the URL is fetched again.
   */
  const enqueue = async (data: UrlCheckJob, jobId: string): Promise<UrlVerdict | undefined> => {
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

  /** Polls for the worker's verdict: the cached key, and every 5th time the job (failed for good, or gone). */
  const awaitVerdict = (data: UrlCheckJob, jobId: string, key: string, deadline: number): Promise<UrlVerdict> =>
    bounded<UrlVerdict>(data.url, deadline, (settle) => {
      let round = 0;
      let busy = false;
      const poll = async () => {
        if (busy) return;
        busy = true;
        round += 1;
        try {
          const cached = await readCachedVerdict(key);
          if (cached) return settle(() => cached);
          if (round % 5 !== 0) return;
          const outcome = await readJobOutcome(jobId);
          if (outcome === 'failed') {
            settle(() => {
              throw unavailable(new Error('the URL check job failed'));
            });
          } else if (outcome === 'missing') {
            // Removed meanwhile (by an operator, or a late cleanup): ask again rather than wait for nothing.
            const verdict = await enqueue(data, jobId);
            if (verdict) settle(() => verdict);
          } else if (outcome) {
            settle(() => outcome);
          }
        } catch (error) {
          settle(() => {
            throw unavailable(error);
          });
        } finally {
          busy = false;
        }
      };
      const poller = setInterval(() => void poll(), pollMs);
      return () => clearInterval(poller);
    });

  const urlCheck: UrlCheck = async (url, { isProtected }) => {
    const deadline = Date.now() + waitMs;
    await whenConnected(url, deadline);
    const hash = urlCheckHash(url, isProtected);
    const key = urlVerdictKey(prefix, hash);
    const jobId = urlCheckJobId(hash);
    const data: UrlCheckJob = { url, isProtected };
    const verdict =
      (await step(url, deadline, () => readCachedVerdict(key))) ??
      (await step(url, deadline, () => enqueue(data, jobId))) ??
      (await awaitVerdict(data, jobId, key, deadline));
    return verdict.ok ? null : verdict.message;
  };

  return {
    urlCheck,
    close: async () => {
      onConnectionClose();
      connection.off('close', onConnectionClose);
      await queue.close().catch(() => undefined);
    },
  };
}
