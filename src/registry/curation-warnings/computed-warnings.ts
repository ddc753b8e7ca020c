import type { Knex } from 'knex';
import { checkRegexForRedos, decidedRedosVerdict, describeComplexity, describeHotspots, REWRITE_ADVICE, type RedosVerdict } from '../../lib/redos-check.js';
import { inspectLuiPattern, luiPatternEngineFor, luiPatternSource } from '../../core/lui-pattern.js';
import { keepRedosVerdicts, recallRedosVerdicts } from '../../db/redos-verdicts.js';
import type { NamespaceRow } from '../../db/tables.js';
import type { CurationWarning } from '../model/curation-warnings.js';

/** Warnings about a namespace's LUI pattern backtracking catastrophically (issue 10). */
export const PATTERN_BACKTRACKING = 'pattern-backtracking';

const ENGINE_DETAILS = {
  linear: 'linear-time: the resolver matches identifiers against it with a linear-time engine, so it stays fast',
  none: 'none: the resolver refuses every identifier of this namespace until the pattern is rewritten (it has no linear-time equivalent)',
  backtracking: 'backtracking: the resolver still matches identifiers by backtracking (the pattern has no linear-time equivalent)',
} as const;

/**
 * The checker's verdict on `source`: the one decided in this process, else the one kept in Postgres
 * (db/redos-verdicts.ts), else a check, whose verdict is kept for the resolvers.
 */
async function verdictOn(db: Knex, source: string): Promise<RedosVerdict> {
  const known = decidedRedosVerdict(source) ?? (await recallRedosVerdicts(db, [source])).get(source);
  if (known) return known;
  const verdict = await checkRegexForRedos(source);
  await keepRedosVerdicts(db, [{ source, flags: '', verdict }]);
  return verdict;
}

/**
 * A warning for a namespace whose pattern the ReDoS checker does not find safe, computed from the pattern
 * with the resolver's checker (lib/redos-check.ts), so no warning is stored: it is open while the pattern
 * stays as it is and gone once a curator rewrites it. Its dates are those of the namespace's last change,
 * when the pattern took its current form at the latest.
 */
export async function patternWarnings(db: Knex, ns: NamespaceRow): Promise<CurationWarning[]> {
  const { error, linearError } = inspectLuiPattern(ns.pattern);
  if (error !== null) return [];
  const verdict = await verdictOn(db, luiPatternSource(ns.pattern));
  if (verdict.status === 'safe') return [];
  const since = ns.modified ?? ns.created;
  const moreDetails: Record<string, string> = { 'field-name': 'pattern', pattern: ns.pattern, verdict: verdict.status };
  if (verdict.status === 'vulnerable') {
    moreDetails.complexity = describeComplexity(verdict);
    moreDetails['slow-input'] = verdict.attack;
    moreDetails.cause = `${describeHotspots(verdict)} can match the same characters in more than one way`;
    moreDetails.advice = REWRITE_ADVICE;
  } else {
    moreDetails.error = verdict.reason;
  }
  moreDetails['resolver-engine'] = ENGINE_DETAILS[luiPatternEngineFor(verdict.status, linearError)];
  if (linearError !== null) moreDetails['linear-time-engine'] = linearError;
  return [
    {
      id: null,
      globalId: `${PATTERN_BACKTRACKING}:namespace:pattern:${ns.id}`,
      type: PATTERN_BACKTRACKING,
      open: true,
      created: since,
      modified: since,
      lastNotification: since,
      latestEvent: { type: 'CREATED', created: since },
      moreDetails,
      targetPath: `/namespaces/${ns.id}`,
    },
  ];
}
