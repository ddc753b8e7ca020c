import type { Db } from '../../db/knex.js';
import type { RegistryChangeRow } from '../../db/tables.js';
import { encodeCursor, type ChangeCursor } from '../model/change-cursor.js';

export interface FeedChange extends Pick<RegistryChangeRow, 'entity' | 'entityId' | 'operation' | 'sourceTable' | 'recordId' | 'prefix' | 'changedAt'> {
  version: string;
  /** Resume after this change. */
  cursor: string;
}

export interface ChangePage {
  changes: FeedChange[];
  /** Where the next page starts: after the last change here, or `since` itself when there was none. */
  next: string;
  /** True when more changes were readable at once; false means the reader has caught up (poll later). */
  more: boolean;
}

export interface ChangeFeedService {
  /** Up to `limit` changes after `since`, oldest first. */
  changesAfter(since: ChangeCursor, limit: number): Promise<ChangePage>;
  /** The last `limit` changes readable now, newest first (the Atom feed's first page). */
  latestChanges(limit: number): Promise<FeedChange[]>;
}

interface LogRow extends Omit<FeedChange, 'cursor'> {
  txid: string;
}

// The output names version and txid are text: ORDER BY names the table's columns, which are ordered as numbers.
const COLUMNS = `version::text AS version, txid::text AS txid, entity, entity_id AS "entityId", operation,
  source_table AS "sourceTable", record_id AS "recordId", prefix, changed_at AS "changedAt"`;

// Log versions are taken before commit, so a change with a lower version can become visible after one with a
// higher version: a cursor on the version alone would skip it. Every transaction whose id is below the
// snapshot's xmin has ended, and none that starts later can get a lower id; so the feed reads only those, in
// (txid, version) order, and a position once passed never gains a change. A change shows once every
// transaction older than it has ended (at once, unless one runs long).
const SETTLED = 'txid < pg_snapshot_xmin(pg_current_snapshot())';

const present = ({ txid, ...row }: LogRow): FeedChange => ({ ...row, cursor: encodeCursor({ txid, version: row.version }) });

export function createChangeFeedService(db: Db): ChangeFeedService {
  return {
    async changesAfter(since, limit) {
      const { rows } = await db.raw<{ rows: LogRow[] }>(
        `SELECT ${COLUMNS} FROM registry_changes
         WHERE (txid, version) > (?::text::xid8, ?::bigint) AND ${SETTLED}
         ORDER BY registry_changes.txid, registry_changes.version LIMIT ?`,
        [since.txid, since.version, limit + 1],
      );
      const more = rows.length > limit;
      const changes = rows.slice(0, limit).map(present);
      return { changes, next: changes.at(-1)?.cursor ?? encodeCursor(since), more };
    },
    async latestChanges(limit) {
      const { rows } = await db.raw<{ rows: LogRow[] }>(
        `SELECT ${COLUMNS} FROM registry_changes WHERE ${SETTLED} ORDER BY registry_changes.txid DESC, registry_changes.version DESC LIMIT ?`,
        [limit],
      );
      return rows.map(present);
    },
  };
}
