import type { Knex } from 'knex';
import type { LinkCheckOutcome, LinkCheckRunRow } from './tables.js';

/**
 * The runs of link checks: `planned` is set once every job of the run is queued (0 until then, so that a
 * fast worker cannot finish a run that is still being planned), `done` counts stored checks, and
 * `finished_at` is set by whichever of the two writes makes them equal. Both are single UPDATEs, which
 * Postgres serialises on the row, so concurrent workers cannot miss the moment.
 */
export async function createLinkCheckRun(db: Knex, run: { id: string; prefix: string | null }): Promise<void> {
  await db('link_check_runs').insert({ id: run.id, prefix: run.prefix }).onConflict('id').ignore();
}

/** Records how many checks the run has; finishes it when they are all stored already. */
export async function setLinkCheckRunPlanned(db: Knex, runId: string, planned: number): Promise<void> {
  await db.raw(
    `UPDATE link_check_runs SET planned = :planned,
       finished_at = CASE WHEN done >= :planned THEN coalesce(finished_at, now()) ELSE NULL END
     WHERE id = :runId`,
    { planned, runId },
  );
}

/** One more stored check of the run; finishes the run with its last one. */
export async function countLinkCheckDone(db: Knex, runId: string): Promise<void> {
  await db.raw(
    `UPDATE link_check_runs SET done = done + 1,
       finished_at = CASE WHEN planned > 0 AND done + 1 >= planned THEN coalesce(finished_at, now()) ELSE finished_at END
     WHERE id = ?`,
    [runId],
  );
}

export function findLinkCheckRun(db: Knex, runId: string): Promise<LinkCheckRunRow | undefined> {
  return db('link_check_runs').where({ id: runId }).first();
}

/** How many checks of the run ended in each outcome class. */
export async function countLinkCheckOutcomes(db: Knex, runId: string): Promise<Partial<Record<LinkCheckOutcome, number>>> {
  const rows = await db('link_checks').where({ runId }).select('outcome').count<{ outcome: LinkCheckOutcome; count: string }[]>('* as count').groupBy('outcome');
  return Object.fromEntries(rows.map((r) => [r.outcome, Number(r.count)]));
}
