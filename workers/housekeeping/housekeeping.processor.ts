import { pruneDatedDatasets } from '../../src/dataset/dated-datasets.js';
import { deleteOlderThan } from '../../src/db/delete-older-than.js';
import { daysBefore } from '../../src/lib/calendar-date.js';
import type { Db } from '../../src/db/knex.js';
import type { HousekeepingResult } from '../../src/queue/housekeeping.queue.js';

const HOUR_MS = 3600_000;

export interface HousekeepingDeps {
  db: Db;
  /** IDEMPOTENCY_KEY_RETENTION_HOURS. */
  retentionHours: number;
  /** LINKCHECK_HISTORY_DAYS. */
  linkCheckHistoryDays: number;
  /** DATASET_DIR and DATASET_RETENTION_DAYS: dated datasets are pruned when both are given. */
  datasetDir?: string;
  datasetRetentionDays?: number;
  now?: () => Date;
}

/**
 * Deletes what is kept only for a while: the stored answers of Idempotency-Keys older than the retention (a
 * client retries a submission within minutes), and link checks and runs older than the history (the
 * reliability of a provider looks back 7 days), and dated datasets older than their retention. Otherwise
 * each table grows for ever. Safe to run twice or in two workers at once.
 */
export async function processHousekeeping(deps: HousekeepingDeps): Promise<HousekeepingResult> {
  const today = deps.now?.() ?? new Date();
  const now = today.getTime();
  const idempotencyKeysDeleted = await deleteOlderThan(deps.db, 'idempotency_keys', 'created', new Date(now - deps.retentionHours * HOUR_MS));
  const historyCutoff = new Date(now - deps.linkCheckHistoryDays * 24 * HOUR_MS);
  const linkChecksDeleted = await deleteOlderThan(deps.db, 'link_checks', 'checked_at', historyCutoff);
  // A run started before the cutoff has no check left worth keeping (its checks are older still, or none
  // came: a run that never finished), and its rows would only ever accumulate.
  const linkCheckRunsDeleted = await deleteOlderThan(deps.db, 'link_check_runs', 'started_at', historyCutoff);
  // A day is kept for the retention's number of whole days before today (UTC): 365 keeps a year of them.
  const datedDatasetsPruned =
    deps.datasetDir && deps.datasetRetentionDays
      ? await pruneDatedDatasets(deps.datasetDir, daysBefore(today, deps.datasetRetentionDays), today)
      : 0;
  return { idempotencyKeysDeleted, linkChecksDeleted, linkCheckRunsDeleted, ...(datedDatasetsPruned > 0 ? { datedDatasetsPruned } : {}) };
}
