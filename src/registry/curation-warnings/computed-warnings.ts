import type { Knex } from 'knex';
import { decidedRedosVerdict, describeComplexity, describeHotspots, REWRITE_ADVICE } from '../../lib/redos-check.js';
import { inspectLuiPattern, luiPatternEngineFor, luiPatternSource } from '../../core/lui-pattern.js';
import { judgeRedosSources } from '../../db/redos-verdicts.js';
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
 * A warning for a namespace whose pattern the ReDoS checker does not find safe, computed from the pattern
 * with the resolver's checker (lib/redos-check.ts), so no warning is stored: it is open while the pattern
 * stays as it is and gone once a curator rewrites it. Its dates are those of the namespace's last change,
 * when the pattern took its current form at the latest.
 */
export async function patternWarnings(db: Knex, ns: NamespaceRow): Promise<CurationWarning[]> {
  const { error, linearError } = inspectLuiPattern(ns.pattern);
  if (error !== null) return [];
  const source = luiPatternSource(ns.pattern);
  // Decided in this process already, else kept in Postgres, else checked now (and kept for the resolvers).
  const verdict = decidedRedosVerdict(source) ?? (await judgeRedosSources(db, [source])).get(source)!.verdict;
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
