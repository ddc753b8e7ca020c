/**
 * "Did you mean": the registry prefixes close to one no namespace has. The registry's page for an unknown
 * prefix and the resolver's failure page ask it of the same scoring, so both suggest the same prefixes.
 */
import { editDistance } from './edit-distance.js';

/** How many prefixes are suggested. */
export const CLOSE_PREFIX_LIMIT = 5;

/**
 * Longest asked prefix compared: no registry prefix is near it, and the work per request stays a few edit
 * distances of short strings per prefix whatever was asked.
 */
export const MAX_ASKED_PREFIX_LENGTH = 100;

/**
 * Up to `limit` prefixes close to `asked` (any case): those starting with it first, then those within an
 * edit distance of a third of its length, nearest first, shorter and then alphabetical on ties. A prefix
 * whose length differs by more than that distance is not compared at all.
 */
export function closestPrefixes(asked: string, prefixes: Iterable<string>, limit = CLOSE_PREFIX_LIMIT): string[] {
  const wanted = asked.toLowerCase().slice(0, MAX_ASKED_PREFIX_LENGTH);
  if (wanted === '') return [];
  const reach = Math.max(1, Math.floor(wanted.length / 3));
  const scored: { prefix: string; score: number }[] = [];
  for (const prefix of prefixes) {
    const lower = prefix.toLowerCase();
    const score = lower.startsWith(wanted) ? 0 : Math.abs(lower.length - wanted.length) > reach ? Infinity : editDistance(lower, wanted);
    if (score <= reach) scored.push({ prefix, score });
  }
  scored.sort((a, b) => a.score - b.score || a.prefix.length - b.prefix.length || a.prefix.localeCompare(b.prefix));
  return scored.slice(0, limit).map((s) => s.prefix);
}
