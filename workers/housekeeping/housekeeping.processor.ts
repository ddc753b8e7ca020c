import type { Db } from '../../src/db/knex.js';
import type { HousekeepingResult } from '../../src/queue/housekeeping.queue.js';

/** Rows per DELETE, so that a backlog never holds a long lock or a long transaction. */
const BATCH = 5000;

/**
 * Deletes the stored answers of Idempotency-Keys older than the retention: a client retries a submission
 * within minutes, and the table would otherwise grow with every submission for ever. Safe to run twice or
 * in two workers at once (each DELETE takes what is still there).
 */
export async function processHousekeeping(deps: { db: Db; retentionHours: number; now?: () => Date }): Promise<HousekeepingResult> {
  const cutoff = new Date((deps.now?.() ?? new Date()).getTime() - deps.retentionHours * 3600_000);
  let deleted = 0;
  for (;;) {
    const { rowCount } = await deps.db.raw<{ rowCount: number }>(
      `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created < ? LIMIT ${BATCH})`,
      [cutoff],
    );
    deleted += rowCount;
    if (rowCount < BATCH) return { idempotencyKeysDeleted: deleted };
  }
}
