/**
 * A namespace's HAL item ends with its `synonyms` (issue 15 item 1: sorted, [] when it has none), which is
 * no column of the namespaces table: every route that presents namespace items completes its rows here
 * first, with one query for the whole page.
 */
import type { Knex } from 'knex';
import { readSynonymsOf } from '../../db/namespace-synonyms.js';
import type { NamespaceRow } from './rows.js';

/** A namespace row as its HAL item presents it. */
export type NamespaceItemRow = NamespaceRow & { synonyms?: readonly string[] };

const NONE: readonly string[] = Object.freeze([]);

/** Sets `synonyms` on each row (in place). */
export async function completeNamespaceRows(db: Knex, rows: readonly NamespaceItemRow[]): Promise<void> {
  if (rows.length === 0) return;
  const byId = await readSynonymsOf(db, rows.map((row) => row.id));
  for (const row of rows) row.synonyms = byId.get(Number(row.id)) ?? NONE;
}
