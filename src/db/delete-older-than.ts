import type { Knex } from 'knex';

/** Rows per DELETE, so that a backlog never holds a long lock or a long transaction. */
const BATCH = 5000;

/**
 * Deletes the rows of `table` whose `column` is before `cutoff`, in batches, and returns how many. Safe to
 * run twice or in two workers at once (each DELETE takes what is still there). `column` is a snake_case
 * column name of a table of ours, never input.
 */
export async function deleteOlderThan(db: Knex, table: string, column: string, cutoff: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await db.raw<{ rowCount: number }>(
      `DELETE FROM ?? WHERE ctid IN (SELECT ctid FROM ?? WHERE ?? < ? LIMIT ${BATCH})`,
      [table, table, column, cutoff],
    );
    deleted += rowCount;
    if (rowCount < BATCH) return deleted;
  }
}
