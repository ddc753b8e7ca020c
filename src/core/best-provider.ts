/**
 * Where the public host redirects a browser after a successful resolution: the reference satellite's
 * `ResolutionApiModel` choice between the best provider URL and the two landing pages.
 */

import type { ParsedCompactId } from './compact-id-parser.js';
import type { ResolvedResource } from './resolve.js';

export type BestProviderChoice =
  | { kind: 'provider'; url: string }
  /** `/deactivatedLanding/<rawRequest>` */
  | { kind: 'deprecated-landing' }
  /** `/protectedLanding/<rawRequest>` */
  | { kind: 'protected-landing' }
  /** Nothing to redirect to; the satellite shows this message instead. */
  | { kind: 'failed'; errorMessage: string };

type Candidate = Pick<
  ResolvedResource,
  | 'id'
  | 'compactIdentifierResolvedUrl'
  | 'recommendation'
  | 'deprecatedResource'
  | 'renderDeprecatedLanding'
  | 'protectedUrls'
  | 'renderProtectedLanding'
>;

const NONE_FAILING: ReadonlySet<number> = new Set();

/**
 * `failing`: ids of the resources whose sample URL has been not_found for days (reliability.ts
 * NOT_FOUND_STREAK_DAYS); such a resource is never chosen while another candidate is not failing.
 */
export function chooseBestProvider(
  resolvedResources: readonly Candidate[],
  parsed: Pick<ParsedCompactId, 'rawRequest' | 'deprecatedNamespace' | 'renderDeprecatedLanding'>,
  failing: ReadonlySet<number> = NONE_FAILING,
): BestProviderChoice {
  const best = bestCandidate(resolvedResources, parsed, failing);
  if (best === undefined) {
    return { kind: 'failed', errorMessage: `Zero resources were found for ${parsed.rawRequest}` };
  }
  if (parsed.deprecatedNamespace) {
    if (parsed.renderDeprecatedLanding || best.renderDeprecatedLanding) return { kind: 'deprecated-landing' };
    return { kind: 'provider', url: best.compactIdentifierResolvedUrl };
  }
  if (best.deprecatedResource && best.renderDeprecatedLanding) return { kind: 'deprecated-landing' };
  if (best.protectedUrls && best.renderProtectedLanding) return { kind: 'protected-landing' };
  return { kind: 'provider', url: best.compactIdentifierResolvedUrl };
}

/**
 * The resource chooseBestProvider sends a browser to, or whose landing page it shows (the namespace page
 * names it); undefined when there is none. In a deprecated namespace, among all resources (the first may
 * itself be deprecated); otherwise among the live ones when there is one.
 */
export function bestCandidate<T extends Candidate>(
  resolvedResources: readonly T[],
  parsed: Pick<ParsedCompactId, 'deprecatedNamespace'>,
  failing: ReadonlySet<number> = NONE_FAILING,
): T | undefined {
  if (resolvedResources.length === 0) return undefined;
  const onlyLive = !parsed.deprecatedNamespace && resolvedResources.some((r) => !r.deprecatedResource);
  return firstWithHighestIndex(resolvedResources, onlyLive, failing);
}

/**
 * What a stable descending sort by recommendation index puts first: on ties, the earliest in dataset order;
 * a failing resource only when every candidate is failing. `resources` is non-empty and, when
 * `skipDeprecated`, holds a live resource.
 */
function firstWithHighestIndex<T extends Candidate>(resources: readonly T[], skipDeprecated: boolean, failing: ReadonlySet<number>): T {
  const best = highest(resources, skipDeprecated, undefined) as T;
  // Nearly always nothing fails: the set is only consulted when something does.
  if (failing.size === 0 || !failing.has(best.id)) return best;
  return highest(resources, skipDeprecated, failing) ?? best;
}

function highest<T extends Candidate>(
  resources: readonly T[],
  skipDeprecated: boolean,
  failing: ReadonlySet<number> | undefined,
): T | undefined {
  let best: T | undefined;
  for (const r of resources) {
    if (skipDeprecated && r.deprecatedResource) continue;
    if (failing !== undefined && failing.has(r.id)) continue;
    if (best === undefined || r.recommendation.recommendationIndex > best.recommendation.recommendationIndex) best = r;
  }
  return best;
}
