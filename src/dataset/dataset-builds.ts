import os from 'node:os';
import type { Db } from '../db/knex.js';
import type { DatasetBuildRow } from '../db/tables.js';
import { buildDataset, type BuildDatasetOptions, type BuildDatasetResult } from './build-dataset.js';
import { utcDateOf } from '../lib/calendar-date.js';
import { keepDatedDataset } from './dated-datasets.js';

export type { DatasetBuildRow, DatasetBuildStatus } from '../db/tables.js';

export interface RecordedBuildOptions extends Omit<BuildDatasetOptions, 'buildId'> {
  reason: string;
  /** Who runs it, for the table; host:pid of this process by default. */
  worker?: string;
  /**
   * Keep the build under a date in DATASET_DIR/dated/ (dated-datasets.ts): under `date` (YYYY-MM-DD), else
   * today's (UTC). The worker always does; a build without it (a script's, a test's) leaves `dir` as it was.
   */
  keepDated?: { date?: string };
}

export interface RecordedBuildResult extends BuildDatasetResult {
  buildId: number;
}

// One build at a time per database, whichever worker process runs it: BullMQ's deduplication covers the
// change-triggered jobs, but not the nightly scheduler's. A session-level lock dies with its connection, so a
// killed worker never leaves it held.
const BUILD_LOCK_KEY = 0x64617461; // 'data'
const KEEP_ROWS = 1000;

export const workerIdentity = (): string => `${os.hostname()}:${process.pid}`;

/**
 * Runs buildDataset under the database-wide build lock and records it in dataset_builds: a 'running' row at
 * the start, finished as 'succeeded', 'skipped' (registry unchanged since the served build) or 'failed' with
 * the error. Rows left 'running' by a worker that died are marked 'failed' ('abandoned') first; that is safe
 * because whoever wrote them no longer holds the lock.
 */
export async function runRecordedBuild(db: Db, options: RecordedBuildOptions): Promise<RecordedBuildResult> {
  const worker = options.worker ?? workerIdentity();
  const lock = await db.client.acquireConnection();
  try {
    // Waits while another build runs; this one then starts from a snapshot taken after it.
    await db.raw('SELECT pg_advisory_lock(?)', [BUILD_LOCK_KEY]).connection(lock);
    try {
      await db('dataset_builds').where({ status: 'running' }).update({ status: 'failed', error: 'abandoned', finishedAt: db.fn.now() });
      const [row] = await db('dataset_builds').insert({ reason: options.reason, worker, status: 'running' }).returning('id');
      const buildId = row!.id;
      try {
        // Holding the lock, this is the only build writing into the directory (see BuildDatasetOptions.exclusive).
        const result = await buildDataset({ ...options, buildId, exclusive: true });
        const { manifest } = result;
        // A skipped build keeps the served one under the date too: it is the dataset as it is that day.
        if (options.keepDated) await keepDatedDataset(options.dir, manifest, options.keepDated.date ?? utcDateOf(new Date()));
        await db('dataset_builds')
          .where({ id: buildId })
          .update({
            status: result.status === 'built' ? 'succeeded' : 'skipped',
            finishedAt: db.fn.now(),
            registryVersion: manifest.registryVersion,
            namespaceCount: manifest.namespaceCount,
            resourceCount: manifest.resourceCount,
            bytes: manifest.variants.plain.size,
          });
        await pruneBuildRows(db);
        return { ...result, buildId };
      } catch (error) {
        await db('dataset_builds')
          .where({ id: buildId })
          .update({ status: 'failed', finishedAt: db.fn.now(), error: String((error as Error).message ?? error).slice(0, 10_000) })
          .catch(() => undefined);
        throw error;
      }
    } finally {
      await db.raw('SELECT pg_advisory_unlock(?)', [BUILD_LOCK_KEY]).connection(lock).catch(() => undefined);
    }
  } finally {
    await db.client.releaseConnection(lock);
  }
}

async function pruneBuildRows(db: Db): Promise<void> {
  await db('dataset_builds')
    .where('id', '<=', db('dataset_builds').select('id').orderBy('id', 'desc').offset(KEEP_ROWS).limit(1))
    .delete();
}

/** The most recent builds, newest first. */
export function recentBuilds(db: Db, limit = 20): Promise<DatasetBuildRow[]> {
  return db('dataset_builds').orderBy('id', 'desc').limit(limit);
}
