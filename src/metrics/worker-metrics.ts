import type { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { readManifest, type DatasetManifest } from '../dataset/dataset-files.js';
import type { Logger } from '../lib/logger.js';
import { withTimeout } from '../lib/with-timeout.js';
import { createQueue, queueNames, type JobData, type JobResult, type QueueName } from '../queue/queues.js';

/** The job states whose counts make a queue's depth (BullMQ's names; prioritized jobs are waiting too). */
const QUEUE_STATES = ['waiting', 'prioritized', 'active', 'delayed', 'failed'] as const;
const JOB_DURATION_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800];

export interface WorkerMetricsOptions {
  /** The worker process's Redis connection, on which the queue depths are read. */
  connection: Redis;
  /** QUEUE_PREFIX. */
  prefix: string;
  /** DATASET_DIR, whose manifest gives the served dataset's size. */
  datasetDir: string;
  logger: Logger;
  /** Longest a scrape waits for the queue counts (the worker's connection waits for Redis forever); 2 s by default. */
  queueCountTimeoutMs?: number;
}

/**
 * The worker process's metrics, in its process's registry (served on WORKER_METRICS_PORT): the depth of every
 * queue, read from Redis at each scrape; what the jobs of this process came to (completed or failed, and how
 * long they ran), counted from the Workers' events; the dataset builds, URL checks and link checks among
 * them by their outcome; and the served dataset's size, read from its manifest at each scrape.
 */
export class WorkerMetrics {
  private readonly jobs: Counter<'queue' | 'outcome'>;
  private readonly jobDuration: Histogram<'queue'>;
  private readonly datasetBuilds: Histogram<'status'>;
  private readonly urlChecks: Counter<'verdict'>;
  private readonly linkChecks: Counter<'outcome'>;
  private readonly queues: Queue[];
  private manifestReading: Promise<DatasetManifest | null> | null = null;

  constructor(
    readonly registry: Registry,
    private readonly options: WorkerMetricsOptions,
  ) {
    const registers = [registry];
    this.queues = Object.values(queueNames).map((name) => {
      const queue = createQueue(name, options.connection, options.prefix) as unknown as Queue;
      queue.on('error', (error) => options.logger.debug({ err: error, queue: name }, 'metrics queue error'));
      return queue;
    });
    const depth: Gauge<'queue' | 'state'> = new Gauge({
      name: 'curie_queue_jobs',
      help: 'Jobs in each queue by state (waiting, prioritized, active, delayed, failed), read from Redis at each scrape; absent while Redis does not answer.',
      labelNames: ['queue', 'state'] as const,
      registers,
      collect: () => this.readQueueDepths(depth),
    });
    this.jobs = new Counter({
      name: 'curie_jobs_total',
      help: 'Job attempts this worker process finished, by queue and outcome (completed, or failed: a retry may follow).',
      labelNames: ['queue', 'outcome'] as const,
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'curie_job_duration_seconds',
      help: 'Time a completed job ran in this worker process, by queue.',
      labelNames: ['queue'] as const,
      buckets: JOB_DURATION_BUCKETS,
      registers,
    });
    this.datasetBuilds = new Histogram({
      name: 'curie_dataset_build_duration_seconds',
      help: 'Time a dataset build job took in this worker process, by status (built, or skipped: the served build was current).',
      labelNames: ['status'] as const,
      buckets: JOB_DURATION_BUCKETS,
      registers,
    });
    this.urlChecks = new Counter({
      name: 'curie_url_checks_total',
      help: 'Live URL checks of registration requests made by this worker process, by verdict (ok, failed).',
      labelNames: ['verdict'] as const,
      registers,
    });
    this.linkChecks = new Counter({
      name: 'curie_link_checks_total',
      help: 'Provider link checks made by this worker process, by outcome (up, protected, not_found, timeout, dns, ...).',
      labelNames: ['outcome'] as const,
      registers,
    });
    const size: Gauge<'variant' | 'encoding'> = new Gauge({
      name: 'curie_dataset_size_bytes',
      help: 'Size of the served resolver dataset file (DATASET_DIR), by variant and encoding; absent before the first build.',
      labelNames: ['variant', 'encoding'] as const,
      registers,
      collect: async () => {
        const manifest = await this.servedManifest();
        size.reset();
        for (const [variant, files] of Object.entries(manifest?.variants ?? {})) {
          size.set({ variant, encoding: 'identity' }, files.size);
          size.set({ variant, encoding: 'gzip' }, files.gzipSize);
        }
      },
    });
    const records: Gauge<'kind'> = new Gauge({
      name: 'curie_dataset_records',
      help: 'Namespaces and resources in the served resolver dataset; absent before the first build.',
      labelNames: ['kind'] as const,
      registers,
      collect: async () => {
        const manifest = await this.servedManifest();
        records.reset();
        if (!manifest) return;
        records.set({ kind: 'namespaces' }, manifest.namespaceCount);
        records.set({ kind: 'resources' }, manifest.resourceCount);
      },
    });
    const version: Gauge = new Gauge({
      name: 'curie_dataset_registry_version',
      help: 'Registry version the served resolver dataset was built from; absent before the first build.',
      registers,
      collect: async () => {
        const manifest = await this.servedManifest();
        if (manifest) version.set(manifest.registryVersion);
        else version.remove({});
      },
    });
  }

  /** Counts what `worker`'s jobs come to (startWorker calls it for every Worker of the process). */
  watch<N extends QueueName>(queue: N, worker: Worker<JobData<N>, JobResult<N>>): void {
    worker.on('completed', (job, result) => this.completed(queue, job, result));
    worker.on('failed', () => this.jobs.inc({ queue, outcome: 'failed' }));
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close().catch(() => undefined)));
  }

  private completed<N extends QueueName>(queue: N, job: Job<JobData<N>, JobResult<N>>, result: JobResult<N>): void {
    this.jobs.inc({ queue, outcome: 'completed' });
    const seconds = job.processedOn && job.finishedOn ? (job.finishedOn - job.processedOn) / 1000 : undefined;
    if (seconds !== undefined) this.jobDuration.observe({ queue }, seconds);
    if (queue === queueNames.dataset) {
      const { status } = result as JobResult<typeof queueNames.dataset>;
      if (seconds !== undefined) this.datasetBuilds.observe({ status }, seconds);
    } else if (queue === queueNames.urlCheck) {
      this.urlChecks.inc({ verdict: (result as JobResult<typeof queueNames.urlCheck>).ok ? 'ok' : 'failed' });
    } else if (queue === queueNames.linkCheck) {
      this.linkChecks.inc({ outcome: (result as JobResult<typeof queueNames.linkCheck>).outcome });
    }
  }

  private async readQueueDepths(gauge: Gauge<'queue' | 'state'>): Promise<void> {
    try {
      const counts = await withTimeout(
        Promise.all(this.queues.map((queue) => queue.getJobCounts(...QUEUE_STATES))),
        this.options.queueCountTimeoutMs ?? 2000,
        'Redis (queue counts)',
      );
      gauge.reset();
      this.queues.forEach((queue, i) => {
        for (const state of QUEUE_STATES) gauge.set({ queue: queue.name, state }, counts[i]?.[state] ?? 0);
      });
    } catch (error) {
      // Stale depths would look like a quiet queue: none is better, and the scrape still answers.
      gauge.reset();
      this.options.logger.warn({ err: error }, 'cannot read the queue depths for the metrics');
    }
  }

  /**
   * The served dataset's manifest, read once per scrape: the three dataset gauges are collected at once
   * (prom-client asks every metric together) and share one reading.
   */
  private servedManifest(): Promise<DatasetManifest | null> {
    this.manifestReading ??= readManifest(this.options.datasetDir)
      .catch(() => null)
      .finally(() => {
        this.manifestReading = null;
      });
    return this.manifestReading;
  }
}
