import type { Logger } from '../lib/logger.js';
import type { Db } from './knex.js';

/**
 * Where the bulk reads go (the registry browse API, the resolver's snapshot loads): a streaming replica
 * when DATABASE_READ_URL is set, the primary otherwise. Change notifications (NOTIFY) are sent and heard on
 * the primary only, and a replica applies a commit a little after the primary announced it: whoever reads
 * because of a notification calls catchUp() first, or it would read, and cache, the registry as it was.
 */
export interface ReadDb {
  readonly db: Db;
  /** True when `db` is a separate connection (DATABASE_READ_URL). */
  readonly separate: boolean;
  /**
   * Resolves once `db` shows every commit the primary had made when it was called: at once without a
   * replica; with one, when its replay position reaches the primary's WAL position (polled), or after
   * REPLICA_CATCH_UP_LIMIT_MS, when the reads go ahead anyway (and the periodic checks catch up later).
   */
  catchUp(): Promise<void>;
}

const POLL_MS = 20;
/** A replica further behind than this is read as it is; the warning says so. */
export const REPLICA_CATCH_UP_LIMIT_MS = 5000;

/** The primary alone: reads go where the writes go. */
export function primaryReads(db: Db): ReadDb {
  return { db, separate: false, catchUp: () => Promise.resolve() };
}

/** Reads from `replica`, kept behind `primary` by no more than catchUp() waits for. */
export function replicaReads(primary: Db, replica: Db, logger: Logger): ReadDb {
  const catchUp = async (): Promise<void> => {
    const started = Date.now();
    const { rows } = await primary.raw<{ rows: { lsn: string }[] }>('SELECT pg_current_wal_lsn()::text AS lsn');
    const target = rows[0]!.lsn;
    for (;;) {
      // NULL on a server that is not in recovery (DATABASE_READ_URL naming the primary, or a promoted
      // replica): it has every commit.
      const { rows: replayed } = await replica.raw<{ rows: { done: boolean | null }[] }>(
        'SELECT pg_last_wal_replay_lsn() >= ?::pg_lsn AS done',
        [target],
      );
      if (replayed[0]?.done !== false) return;
      if (Date.now() - started > REPLICA_CATCH_UP_LIMIT_MS) {
        logger.warn({ target }, `the read replica is more than ${REPLICA_CATCH_UP_LIMIT_MS} ms behind the primary; reading it as it is`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  };
  return { db: replica, separate: true, catchUp };
}
