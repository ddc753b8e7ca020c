import type { Job } from 'bullmq';
import type { Db } from '../../src/db/knex.js';
import type { Logger } from '../../src/lib/logger.js';
import { runRecordedBuild } from '../../src/dataset/dataset-builds.js';
import type { ExportUrls } from '../../src/dataset/export-uris.js';
import { checkDatasetBuildJob, type DatasetBuildJob, type DatasetBuildOutcome } from '../../src/queue/dataset.queue.js';
import { refuseUnprocessable } from '../job-family.js';

export interface DatasetProcessorDeps {
  db: Db;
  /** DATASET_DIR. */
  dir: string;
  /** PUBLIC_RESOLVER_URL and PUBLIC_REGISTRY_URL, which the exports' URIs are made of (their defaults when absent). */
  urls?: ExportUrls;
  logger?: Logger;
  /** Keep each build under its date in DATASET_DIR/dated/ (the job's `date`, else today's); the worker does. */
  keepDated?: boolean;
}

/**
 * Builds the resolver dataset (or confirms the served one is current) and records the run in dataset_builds.
 * Idempotent: running it twice for one registry state builds once and skips once. A failure leaves the
 * served files untouched and is retried by BullMQ with back-off; a payload without a reason to record fails
 * at once.
 */
export async function processDatasetBuild(
  deps: DatasetProcessorDeps,
  job: Pick<Job<DatasetBuildJob>, 'data'> & Partial<Pick<Job<DatasetBuildJob>, 'updateProgress'>>,
): Promise<DatasetBuildOutcome> {
  refuseUnprocessable(checkDatasetBuildJob(job.data));
  const result = await runRecordedBuild(deps.db, {
    db: deps.db,
    dir: deps.dir,
    urls: deps.urls,
    reason: job.data.reason,
    keepDated: deps.keepDated ? { date: job.data.date } : undefined,
    // Progress is for watching a long build; it must never hold the build up while Redis is away.
    onProgress: (done) => void job.updateProgress?.({ namespaces: done }).catch(() => undefined),
  });
  const { manifest } = result;
  const outcome: DatasetBuildOutcome = {
    buildId: result.buildId,
    status: result.status,
    registryVersion: manifest.registryVersion,
    namespaceCount: manifest.namespaceCount,
    resourceCount: manifest.resourceCount,
    etag: manifest.variants.plain.sha256,
  };
  deps.logger?.info({ ...outcome, reason: job.data.reason }, result.status === 'built' ? 'dataset built' : 'dataset unchanged; build skipped');
  return outcome;
}
