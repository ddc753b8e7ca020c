/**
 * After an import: the ReDoS checker's verdict on every LUI pattern of the registry that has none kept for the
 * current checker version (db/redos-verdicts.ts), so that resolvers starting on the imported registry read the
 * verdicts instead of each checking the patterns again. The public registry's ~530 patterns take about 4 s of
 * CPU with the checker's native agent (lib/redos-check.ts); a re-import checks only new or changed patterns.
 *
 * A check that runs out of time keeps nothing: the resolvers check that pattern themselves, as they would
 * without this step.
 */
import type { Knex } from 'knex';
import { inspectLuiPattern, luiPatternSource } from '../core/lui-pattern.js';
import { judgeRedosSources } from '../db/redos-verdicts.js';
import { isDecided } from '../lib/redos-check.js';

export interface PatternVerdictSummary {
  /** Distinct patterns that had no kept verdict and were checked now. */
  checked: number;
  /** Of those, the ones not found safe (the resolvers match them with the linear-time engine). */
  flagged: number;
  /** Distinct patterns whose verdict was kept already. */
  known: number;
  /** Distinct patterns whose check ran out of time: nothing kept, the resolvers check them. */
  unfinished: number;
}

export async function keepPatternVerdicts(db: Knex): Promise<PatternVerdictSummary> {
  const patterns = (await db('namespaces').distinct('pattern')) as { pattern: string }[];
  // A pattern that does not compile matches nothing whatever the checker says.
  const sources = [...new Set(patterns.filter(({ pattern }) => inspectLuiPattern(pattern).error === null).map(({ pattern }) => luiPatternSource(pattern)))];
  const judged = [...(await judgeRedosSources(db, sources)).values()];
  const checked = judged.filter(({ verdict, recalled }) => !recalled && isDecided(verdict));
  return {
    checked: checked.length,
    flagged: checked.filter(({ verdict }) => verdict.status !== 'safe').length,
    known: judged.filter(({ recalled }) => recalled).length,
    unfinished: judged.filter(({ verdict }) => !isDecided(verdict)).length,
  };
}

/** What keepPatternVerdictsAfterImport answers: the summary, or why nothing was kept. */
export type PatternVerdictOutcome = PatternVerdictSummary | { notKept: string };

/**
 * keepPatternVerdicts for a caller whose registry is in already: the verdicts are a cache that each resolver
 * rebuilds by checking, so failing to keep them (a database error, the checker failing to start) must not
 * report the import as failed. Answers the reason instead of throwing.
 */
export async function keepPatternVerdictsAfterImport(db: Knex): Promise<PatternVerdictOutcome> {
  try {
    return await keepPatternVerdicts(db);
  } catch (error) {
    return { notKept: (error as Error).message };
  }
}

/** The import's summary line about the patterns. */
export function formatPatternVerdicts(summary: PatternVerdictOutcome): string {
  if ('notKept' in summary) return `LUI patterns: no verdict kept (${summary.notKept}); the resolvers check them as they start`;
  const { checked, flagged, known, unfinished } = summary;
  const ranOut = unfinished > 0 ? `, ${unfinished} not finished (the resolvers check them)` : '';
  return `LUI patterns: ${checked} checked for catastrophic backtracking (${flagged} flagged), ${known} known already${ranOut}`;
}
