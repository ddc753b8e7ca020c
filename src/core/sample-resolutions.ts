/**
 * Every resource of every namespace resolved with its own sample identifier: what the reference's insight
 * API (`ResolverDataHelper.resolveAllResourcesWithTheirSampleId`) answers and its link checker reads.
 */

import { DEFAULT_RECOMMENDATION } from './recommendation.js';
import type { NamespaceEntry, RegistrySnapshot } from './registry-snapshot.js';
import type { ResolvedResource } from './resolve.js';

const ID_PLACEHOLDER = '{$id}';

/**
 * In namespace id order (the reference's order is Redis's, i.e. none), resources in dataset order, deprecated
 * ones included. As in the reference: Java's `urlPattern.replace("{$id}", sampleId)` (every occurrence, no
 * embedded-prefix handling, since sample ids lack the prefix), the default recommendation, the namespace's
 * deprecation, and `renderDeprecatedLanding` left false (the reference never sets it here). A resource
 * without a sample id of its own takes its namespace's, where the reference would fail the whole answer.
 */
export function resolveEverySample(snapshot: RegistrySnapshot): ResolvedResource[] {
  const namespaces = [...snapshot.namespacesByPrefix.values()].sort((a, b) => a.id - b.id);
  const resolved: ResolvedResource[] = [];
  for (const ns of namespaces) for (const r of ns.resources) resolved.push(sampleResolution(ns, r));
  return resolved;
}

function sampleResolution(ns: NamespaceEntry, r: NamespaceEntry['resources'][number]): ResolvedResource {
  return {
    id: r.id,
    mirId: r.mirId,
    providerCode: r.providerCode,
    compactIdentifierResolvedUrl: r.urlPattern.replaceAll(ID_PLACEHOLDER, r.sampleId ?? ns.sampleId),
    description: r.description,
    institution: r.institution,
    location: r.location,
    official: r.official,
    resourceHomeUrl: r.resourceHomeUrl,
    recommendation: DEFAULT_RECOMMENDATION,
    namespacePrefix: ns.prefix,
    deprecatedNamespace: ns.deprecated,
    namespaceDeprecationDate: ns.deprecationDate,
    deprecatedResource: r.deprecated,
    resourceDeprecationDate: r.deprecationDate,
    renderDeprecatedLanding: false,
    protectedUrls: r.protectedUrls,
    renderProtectedLanding: r.renderProtectedLanding,
    authHelpUrl: r.authHelpUrl,
    authHelpDescription: r.authHelpDescription,
  };
}
