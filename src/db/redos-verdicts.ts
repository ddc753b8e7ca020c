/**
 * The ReDoS checker's verdicts kept in Postgres (the redos_verdicts table; its migration says why), so that a
 * process asks the checker only about what no process has judged yet with the same checker version. What is
 * read is handed to lib/redos-check.ts (`rememberRedosVerdict`), which then answers without checking.
 *
 * Only decided verdicts are kept: an unfinished check (out of time on a busy machine) decided nothing.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { checkRegexForRedos, isDecided, REDOS_CHECKER, rememberRedosVerdict, type RedosVerdict } from '../lib/redos-check.js';

export interface KeptVerdict {
  source: string;
  flags: string;
  verdict: RedosVerdict;
}

// Keys per query: far below Postgres' 65535 bind parameters.
const CHUNK = 1000;

function keyOf(source: string, flags: string): string {
  return createHash('sha256').update(`${flags}/${source}`).digest('hex');
}

/**
 * The kept verdicts of this checker version on `sources` (with `flags`), by source; each is also remembered
 * by lib/redos-check.ts, so asking the checker about it answers at once.
 */
export async function recallRedosVerdicts(db: Knex, sources: Iterable<string>, flags = ''): Promise<Map<string, RedosVerdict>> {
  const keys = [...new Set([...sources].map((source) => keyOf(source, flags)))];
  const found = new Map<string, RedosVerdict>();
  for (let i = 0; i < keys.length; i += CHUNK) {
    const rows = (await db('redos_verdicts')
      .select('source', 'verdict')
      .whereIn('key', keys.slice(i, i + CHUNK))
      .andWhere({ checker: REDOS_CHECKER, flags })) as { source: string; verdict: RedosVerdict }[];
    for (const { source, verdict } of rows) {
      rememberRedosVerdict(source, flags, verdict);
      found.set(source, verdict);
    }
  }
  return found;
}

/** Keeps `verdicts` (the decided ones), replacing what another checker version said about the same source. */
export async function keepRedosVerdicts(db: Knex, verdicts: readonly KeptVerdict[]): Promise<void> {
  const rows = verdicts
    .filter(({ verdict }) => isDecided(verdict))
    .map(({ source, flags, verdict }) => ({
      key: keyOf(source, flags),
      source,
      flags,
      checker: REDOS_CHECKER,
      verdict: JSON.stringify(verdict),
      checkedAt: new Date(),
    }));
  for (let i = 0; i < rows.length; i += CHUNK) {
    await db('redos_verdicts').insert(rows.slice(i, i + CHUNK)).onConflict('key').merge();
  }
}

/** A source's verdict, and whether it was kept already (false: checked now). */
export interface JudgedSource {
  verdict: RedosVerdict;
  recalled: boolean;
}

/**
 * The verdict on each of `sources` (flags ''): the kept one, else a check's now, kept when decided. The
 * resolver's snapshot checks (resolver/lui-pattern-checks.ts) do the same with retries of their own.
 */
export async function judgeRedosSources(db: Knex, sources: readonly string[]): Promise<Map<string, JudgedSource>> {
  const kept = await recallRedosVerdicts(db, sources);
  const checked = await Promise.all(
    sources.filter((source) => !kept.has(source)).map(async (source) => ({ source, flags: '', verdict: await checkRegexForRedos(source) })),
  );
  await keepRedosVerdicts(db, checked);
  return new Map([
    ...[...kept].map(([source, verdict]): [string, JudgedSource] => [source, { verdict, recalled: true }]),
    ...checked.map(({ source, verdict }): [string, JudgedSource] => [source, { verdict, recalled: false }]),
  ]);
}
