import { UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Config } from '../src/config.js';
import type { Db } from '../src/db/knex.js';
import type { Logger } from '../src/lib/logger.js';
import type { WorkerMetrics } from '../src/metrics/worker-metrics.js';
import type { JobData, JobResult, QueueName } from '../src/queue/queues.js';

export interface WorkerDeps {
  config: Readonly<Config>;
  db: Db;
  /** Shared blocking-safe connection (maxRetriesPerRequest: null) for every Worker of this process. */
  connection: Redis;
  /** The family's own logger. */
  logger: Logger;
  /** Counts what every Worker's jobs come to; absent when the process serves no metrics (WORKER_METRICS_PORT=0). */
  metrics?: WorkerMetrics;
}

/** One job family: wires its Worker(s). Their schedules are one list, in schedules.ts. */
export interface JobFamily {
  name: string;
  start: (deps: WorkerDeps) => Promise<Worker[]>;
}

/** What a Worker of `queue` runs for each job; `token` is the job's lock, for moving it (to the delayed set). */
export type Processor<N extends QueueName> = (job: Job<JobData<N>, JobResult<N>>, token?: string) => Promise<JobResult<N>>;

/**
 * A Worker of `queue` on the process's shared connection and prefix, with the listeners every Worker needs:
 * 'error' (unhandled, it would crash the process; BullMQ reconnects by itself) and 'failed' (an attempt
 * threw: BullMQ retries it with back-off, unless it was the last attempt or an UnrecoverableError), and the
 * process's job metrics.
 */
export function startWorker<N extends QueueName>(
  deps: WorkerDeps,
  queue: N,
  processor: Processor<N>,
  options: Omit<WorkerOptions, 'connection' | 'prefix'> = {},
): Worker<JobData<N>, JobResult<N>> {
  const { config, connection, logger } = deps;
  const worker = new Worker<JobData<N>, JobResult<N>>(queue, processor, { ...options, connection, prefix: config.QUEUE_PREFIX });
  worker.on('error', (error) => logger.error({ err: error, queue }, 'worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ err: error, queue, jobId: job?.id, data: job?.data, attemptsMade: job?.attemptsMade }, 'job failed'),
  );
  deps.metrics?.watch(queue, worker);
  return worker;
}

/**
 * A family of one Worker that runs the jobs its schedule (schedules.ts) adds one at a time, with the
 * processor `prepare` builds from the process's dependencies.
 */
export function scheduledFamily<N extends QueueName>(name: string, queue: N, prepare: (deps: WorkerDeps) => Processor<N>): JobFamily {
  return { name, start: async (deps) => [startWorker(deps, queue, prepare(deps), { concurrency: 1 })] };
}

/**
 * Refuses a payload no attempt could process (`problem`, from the queue's check): an UnrecoverableError
 * fails the job at once instead of retrying it with back-off.
 */
export function refuseUnprocessable(problem: string | null): void {
  if (problem !== null) throw new UnrecoverableError(problem);
}
