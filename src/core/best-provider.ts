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
  | 'compactIdentifierResolvedUrl'
  | 'recommendation'
  | 'deprecatedResource'
  | 'renderDeprecatedLanding'
  | 'protectedUrls'
  | 'renderProtectedLanding'
>;

export function chooseBestProvider(
  resolvedResources: readonly Candidate[],
  parsed: Pick<ParsedCompactId, 'rawRequest' | 'deprecatedNamespace' | 'renderDeprecatedLanding'>,
): BestProviderChoice {
  if (resolvedResources.length === 0) {
    return { kind: 'failed', errorMessage: `Zero resources were found for ${parsed.rawRequest}` };
  }

  if (parsed.deprecatedNamespace) {
    // Among all resources, deprecated ones included: the first may itself be deprecated.
    const best = firstWithHighestIndex(resolvedResources, false);
    if (parsed.renderDeprecatedLanding || best.renderDeprecatedLanding) return { kind: 'deprecated-landing' };
    return { kind: 'provider', url: best.compactIdentifierResolvedUrl };
  }

  const onlyLive = resolvedResources.some((r) => !r.deprecatedResource);
  const best = firstWithHighestIndex(resolvedResources, onlyLive);
  if (best.deprecatedResource && best.renderDeprecatedLanding) return { kind: 'deprecated-landing' };
  if (best.protectedUrls && best.renderProtectedLanding) return { kind: 'protected-landing' };
  return { kind: 'provider', url: best.compactIdentifierResolvedUrl };
}

/**
 * What a stable descending sort by recommendation index puts first: on ties, the earliest in dataset order.
 * `resources` is non-empty and, when `skipDeprecated`, holds a live resource.
 */
function firstWithHighestIndex<T extends Candidate>(resources: readonly T[], skipDeprecated: boolean): T {
  let best: T | undefined;
  for (const r of resources) {
    if (skipDeprecated && r.deprecatedResource) continue;
    if (best === undefined || r.recommendation.recommendationIndex > best.recommendation.recommendationIndex) best = r;
  }
  return best as T;
}
