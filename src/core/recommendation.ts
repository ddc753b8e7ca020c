/**
 * Recommendation indices as the reference computes them: the resolver's single-resource shortcut, and the
 * resource-recommender's weighted strategy (`RecommendationStrategyWeighted`) for more than one resource.
 */

import type { ResourceEntry } from './registry-snapshot.js';

export interface Recommendation {
  readonly recommendationIndex: number;
  readonly recommendationExplanation: string;
}

/** Link-checker reliability (0..100) of a resource, or undefined when nothing is known about it. */
export type ReliabilityLookup = (resourceId: number) => number | undefined;

/** The link checker's score for a resource without any check history. */
export const DEFAULT_RELIABILITY = 50;

const ONLY_RESOURCE_EXPLANATION = 'Only resource available for this CID';
const FUNCTION_BASED_EXPLANATION = 'Function based recommendation';

// Recommendations are immutable and take few distinct values, so responses share them rather than
// allocating one per resolved resource.
export const ONLY_RESOURCE_RECOMMENDATION: Recommendation = Object.freeze({
  recommendationIndex: 100,
  recommendationExplanation: ONLY_RESOURCE_EXPLANATION,
});

const functionBasedByIndex: Recommendation[] = [];
for (let index = 0; index <= 100; index++) {
  functionBasedByIndex.push(
    Object.freeze({ recommendationIndex: index, recommendationExplanation: FUNCTION_BASED_EXPLANATION }),
  );
}

function functionBased(index: number): Recommendation {
  return (
    functionBasedByIndex[index] ?? { recommendationIndex: index, recommendationExplanation: FUNCTION_BASED_EXPLANATION }
  );
}

/**
 * Spring `PatternMatchUtils.simpleMatch("http*://*ebi.ac.uk/*", url)`. The pattern ends with `*`, so a
 * leftmost search for each literal part decides the match; this keeps it linear on long URLs where a regex
 * with several `.*` would backtrack.
 */
export function isEbiHostedUrl(url: string): boolean {
  if (!url.startsWith('http')) return false;
  const scheme = url.indexOf('://', 4);
  return scheme !== -1 && url.indexOf('ebi.ac.uk/', scheme + 3) !== -1;
}

/**
 * Index of one resource among `resourceCount` resolved ones. With a single resource the reference never calls
 * the recommender, so even a deprecated one gets 100.
 */
export function recommendResource(
  resource: Pick<ResourceEntry, 'id' | 'official' | 'deprecated'>,
  resolvedUrl: string,
  deprecatedNamespace: boolean,
  resourceCount: number,
  reliabilityOf?: ReliabilityLookup,
): Recommendation {
  if (resourceCount === 1) return ONLY_RESOURCE_RECOMMENDATION;
  if (resource.deprecated || deprecatedNamespace) return functionBased(0);
  const reliability = clampReliability(reliabilityOf?.(resource.id));
  const official = resource.official ? 100 : 0;
  const ebi = isEbiHostedUrl(resolvedUrl) ? 100 : 0;
  // Java integer division on non-negative ints.
  return functionBased(Math.floor((55 * official + 40 * reliability + 5 * ebi) / 100));
}

function clampReliability(score: number | undefined): number {
  if (score === undefined || Number.isNaN(score)) return DEFAULT_RELIABILITY;
  // The link checker's score is a rounded int in 0..100; keep a bad lookup from producing an index outside it.
  return Math.min(100, Math.max(0, Math.round(score)));
}
