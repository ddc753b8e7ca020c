/**
 * Recommendation indices: the reference resolver's single-resource shortcut, and the resource-recommender's
 * weighted formula (`RecommendationStrategyWeighted`) for more than one resource, with the reliability
 * measured by our link checks (reliability.ts) and an explanation of what went into the index.
 *
 * Everything here runs when the snapshot is built or the measurements refreshed (rankProvider), never per
 * request: resolution reads the precomputed, frozen Recommendation of each resource.
 */

import {
  DEFAULT_RELIABILITY,
  NOT_FOUND_STREAK_DAYS,
  RELIABILITY_WINDOW_DAYS,
  reliabilityOf,
  type SampleMeasurement,
} from './reliability.js';

export interface Recommendation {
  readonly recommendationIndex: number;
  readonly recommendationExplanation: string;
}

const ONLY_RESOURCE_EXPLANATION = 'Only resource available for this CID';

/** The reference's `Recommendation` as constructed, before (or without) any scoring. */
export const DEFAULT_RECOMMENDATION: Recommendation = Object.freeze({
  recommendationIndex: 0,
  recommendationExplanation: '--- default explanation ---',
});

// Recommendations are immutable and computed ahead of requests, so responses share them rather than
// allocating one per resolved resource.
export const ONLY_RESOURCE_RECOMMENDATION: Recommendation = Object.freeze({
  recommendationIndex: 100,
  recommendationExplanation: ONLY_RESOURCE_EXPLANATION,
});

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

const ID_PLACEHOLDER = '{$id}';

/**
 * Whether every URL the pattern resolves to is EBI-hosted (true) or none is (false), as far as the part
 * before the identifier decides it; undefined when the identifier could change the answer (the reference
 * matches the whole resolved URL, so `https://example.org/{$id}` with the LUI `ebi.ac.uk/x` counts as EBI).
 */
export function ebiHostingOfUrlPattern(urlPattern: string): boolean | undefined {
  const at = urlPattern.indexOf(ID_PLACEHOLDER);
  if (at === -1) return isEbiHostedUrl(urlPattern);
  const head = urlPattern.slice(0, at);
  if (head.length < 4) return 'http'.startsWith(head) ? undefined : false;
  if (!head.startsWith('http')) return false;
  // The first '://' of the URL is the head's when the head has one (an earlier one would lie in the head).
  const scheme = head.indexOf('://', 4);
  if (scheme === -1) return undefined;
  return head.indexOf('ebi.ac.uk/', scheme + 3) !== -1 ? true : undefined;
}

/** What ranking a provider reads from its snapshot entry. */
export interface RankedProviderFacts {
  readonly official: boolean;
  readonly deprecated: boolean;
  readonly urlPattern: string;
}

/**
 * A provider's recommendation when more than one resource is resolved: `recommendation` for its URLs, or,
 * when `recommendationIfEbiHosted` is not null (the pattern leaves it to the identifier), `recommendation`
 * for a resolved URL that is not EBI-hosted and `recommendationIfEbiHosted` for one that is.
 */
export interface ProviderRanking {
  readonly recommendation: Recommendation;
  readonly recommendationIfEbiHosted: Recommendation | null;
}

const DEPRECATED_RESOURCE: Recommendation = Object.freeze({
  recommendationIndex: 0,
  recommendationExplanation: 'deprecated resource',
});
const DEPRECATED_NAMESPACE: Recommendation = Object.freeze({
  recommendationIndex: 0,
  recommendationExplanation: 'resource of a deprecated namespace',
});

/** The reference's weighted formula: Java integer division of non-negative ints. */
export function recommendationIndexOf(official: boolean, reliability: number, ebiHosted: boolean): number {
  return Math.floor((55 * (official ? 100 : 0) + 40 * reliability + 5 * (ebiHosted ? 100 : 0)) / 100);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** What went into a measured availability, in words. */
function availabilityText(measurement: SampleMeasurement | undefined): string {
  const uncounted =
    measurement !== undefined && measurement.uncounted > 0
      ? `${plural(measurement.uncounted, 'check')} blocked as a bot or skipped, not counted`
      : '';
  if (measurement === undefined || measurement.counted === 0) {
    return `no availability measured yet (counted as ${DEFAULT_RELIABILITY}${uncounted ? `; ${uncounted}` : ''})`;
  }
  const checks = plural(measurement.counted, 'check');
  return `measured availability ${reliabilityOf(measurement)} % over ${RELIABILITY_WINDOW_DAYS} days (${checks}${uncounted ? `; ${uncounted}` : ''})`;
}

/**
 * The recommendation of a live provider (neither it nor its namespace deprecated) among several, e.g.
 * `official 100, measured availability 63 % over 7 days (8 checks), hosted at EBI`.
 */
export function recommendLiveProvider(
  official: boolean,
  ebiHosted: boolean,
  measurement: SampleMeasurement | undefined,
): Recommendation {
  if (measurement === undefined) return UNMEASURED[official ? 1 : 0]![ebiHosted ? 1 : 0]!;
  return buildRecommendation(official, ebiHosted, measurement);
}

function buildRecommendation(official: boolean, ebiHosted: boolean, measurement: SampleMeasurement | undefined): Recommendation {
  let explanation = `official ${official ? 100 : 0}, ${availabilityText(measurement)}, ${ebiHosted ? 'hosted at EBI' : 'not hosted at EBI'}`;
  if (measurement?.notFoundStreak) {
    explanation += `; sample URL not found for ${NOT_FOUND_STREAK_DAYS} days in a row, so not a redirect target while another provider works`;
  }
  return Object.freeze({
    recommendationIndex: recommendationIndexOf(official, reliabilityOf(measurement), ebiHosted),
    recommendationExplanation: explanation,
  });
}

// Most providers have no measurement: they share these four, by [official][ebiHosted].
const UNMEASURED: readonly (readonly Recommendation[])[] = [false, true].map((official) =>
  [false, true].map((ebi) => buildRecommendation(official, ebi, undefined)),
);

/** Computes a provider's ranking (see ProviderRanking) when the snapshot or the measurements change. */
export function rankProvider(
  resource: RankedProviderFacts,
  deprecatedNamespace: boolean,
  measurement: SampleMeasurement | undefined,
): ProviderRanking {
  // The reference's recommender gives both 0 whatever else holds.
  if (resource.deprecated) return { recommendation: DEPRECATED_RESOURCE, recommendationIfEbiHosted: null };
  if (deprecatedNamespace) return { recommendation: DEPRECATED_NAMESPACE, recommendationIfEbiHosted: null };
  const ebi = ebiHostingOfUrlPattern(resource.urlPattern);
  if (ebi !== undefined) return { recommendation: recommendLiveProvider(resource.official, ebi, measurement), recommendationIfEbiHosted: null };
  return {
    recommendation: recommendLiveProvider(resource.official, false, measurement),
    recommendationIfEbiHosted: recommendLiveProvider(resource.official, true, measurement),
  };
}
