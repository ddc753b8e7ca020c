/**
 * Compact-identifier resolution as the reference resolver decides it: the chain
 * `[RegistryNamespaceResolver, CompactIdentifierResolutionService]` and its messages: what was resolved, or
 * why not. How an answer is written for a client is the resolver's presenter's (resolution.presenter.ts).
 *
 * This runs on every resolution request, so it compiles nothing, formats no date, sorts nothing and builds
 * each resolved resource once, as a literal in JSON field order; messages are only built on failure paths.
 */

import { parseCompactIdWithNamespace, type ParsedCompactId } from './compact-id-parser.js';
import { matchesLuiPattern } from './lui-pattern.js';
import { canonicalCompactId, canonicalLocalId } from './lui-rules.js';
import { encodeLuiSuffix, splitLuiSuffix } from './lui-suffix.js';
import { isEbiHostedUrl, ONLY_RESOURCE_RECOMMENDATION, type Recommendation } from './recommendation.js';
import type { InstitutionView, LocationView, NamespaceEntry, RegistrySnapshot } from './registry-snapshot.js';
import { buildProviderUrl } from './url-pattern.js';

/** Field order is the reference's `ResolvedResource` JSON order. */
export interface ResolvedResource {
  id: number;
  mirId: string | null;
  providerCode: string;
  compactIdentifierResolvedUrl: string;
  description: string | null;
  institution: InstitutionView;
  location: LocationView;
  official: boolean;
  resourceHomeUrl: string;
  recommendation: Recommendation;
  namespacePrefix: string | null;
  deprecatedNamespace: boolean;
  namespaceDeprecationDate: string | null;
  deprecatedResource: boolean;
  resourceDeprecationDate: string | null;
  renderDeprecatedLanding: boolean;
  protectedUrls: boolean;
  renderProtectedLanding: boolean;
  authHelpUrl: string | null;
  authHelpDescription: string | null;
}

export type ParsedCompactIdentifier = ParsedCompactId;

export interface Resolved {
  kind: 'resolved';
  resolvedResources: ResolvedResource[];
  parsedCompactIdentifier: ParsedCompactIdentifier;
  /** The snapshot entry the resources came from (absent for a namespace page); lets serialisers reuse its parts. */
  namespace: NamespaceEntry | undefined;
  /**
   * The compact identifier the request was resolved as when its LUI had to be canonicalised (lui-rules.ts):
   * `CHEBI:36927` for `chebi:CHEBI:36927`; parsedCompactIdentifier and the resources carry its LUI. Absent
   * when the LUI resolved as typed. Answered as the payload's trailing `canonicalCompactIdentifier`.
   */
  canonicalCompactIdentifier?: string;
  /**
   * The synonym the request named the namespace by, as written (parsedCompactIdentifier names the canonical
   * prefix); null when the request used the prefix. Answered as the payload's trailing `prefixSynonym`.
   */
  prefixSynonym: string | null;
  /**
   * The part of the LUI passed through to the providers (lui-suffix.ts), as typed: `/0.210831.2033` for
   * `dandi:000027/0.210831.2033` on a namespace with suffix passthrough on; parsedCompactIdentifier's LUI is
   * the part before it. Absent otherwise. Answered as the payload's trailing `luiSuffix`.
   */
  luiSuffix?: string;
}

/**
 * Why an identifier did not resolve. The first two are requests the reference calls invalid (neither
 * resolver of its chain accepts them); the last two are valid requests with nothing to offer.
 */
export type UnresolvedReason = 'not-a-compact-id' | 'lui-mismatch' | 'no-providers' | 'no-provider-with-code';

export interface Unresolved {
  kind: 'unresolved';
  reason: UnresolvedReason;
  /** The reference's explanation, as it words it. */
  message: string;
}

export type Resolution = Resolved | Unresolved;

export interface ResolveOptions {
  /** Base URL of this deployment's registry pages, e.g. `https://registry.example.org`. */
  publicRegistryUrl: string;
}

export function resolveCompactId(raw: string, snapshot: RegistrySnapshot, options: ResolveOptions): Resolution {
  const { parsed, namespace, synonym } = parseCompactIdWithNamespace(raw, snapshot);

  // RegistryNamespaceResolver: a bare prefix resolves to its registry page.
  if (parsed.namespace !== null && parsed.localId === null && parsed.providerCode === null && namespace !== null) {
    return found([namespacePageResource(namespace, options.publicRegistryUrl)], parsed, undefined, synonym);
  }

  // CompactIdentifierResolutionService.
  const { providerCode } = parsed;
  let localId = parsed.localId;
  if (localId === null || parsed.namespace === null || namespace === null) {
    return notResolved(raw, 'not-a-compact-id', `INVALID Compact Identifier resolution request for '${raw}'`);
  }
  let canonicalCompactIdentifier: string | undefined;
  let luiSuffix: string | undefined;
  let urlSuffix: string | undefined;
  if (!matchesLuiPattern(namespace.pattern, localId)) {
    // Only a refused LUI is canonicalised, so a request valid as typed costs nothing more and answers as before.
    const canonical = canonicalLocalId(namespace, localId);
    if (canonical !== null) {
      localId = parsed.localId = canonical;
      canonicalCompactIdentifier = canonicalCompactId(namespace.prefix, canonical, namespace.namespaceEmbeddedInLui);
    } else {
      const mismatch = `For namespace '${parsed.namespace}', provided local ID '${localId}' DOES NOT MATCH local IDs definition pattern '${namespace.pattern}'`;
      // Off by default: a namespace without passthrough fails here exactly as before, with no more work.
      if (namespace.suffixPassthrough !== true) return notResolved(raw, 'lui-mismatch', mismatch);
      const split = splitLuiSuffix(namespace.pattern, localId);
      if (split.kind === 'none') return notResolved(raw, 'lui-mismatch', mismatch);
      if (split.kind === 'refused') {
        return notResolved(raw, 'lui-mismatch', `${mismatch}, and what follows its part that does (the suffix) cannot be passed through: it ${split.problem}`);
      }
      localId = parsed.localId = split.head;
      luiSuffix = split.suffix;
      urlSuffix = encodeLuiSuffix(split.suffix);
    }
  }
  const resources = namespace.resources;
  if (resources.length === 0) return resolvedWithoutResources('no-providers', `No providers found for Compact ID '${raw}'`);

  const filterByProvider = providerCode !== null && hasText(providerCode);
  let count = resources.length;
  if (filterByProvider) {
    count = 0;
    for (const resource of resources) if (resource.providerCode === providerCode) count++;
    if (count === 0) {
      return resolvedWithoutResources(
        'no-provider-with-code',
        `For Compact ID '${raw}', prefix '${parsed.namespace}', NO RESOURCES FOUND with PROVIDER CODE '${providerCode}'`,
      );
    }
  }

  const resolved: ResolvedResource[] = [];
  const embedded = parsed.namespaceEmbeddedInLui;
  for (const r of resources) {
    if (filterByProvider && r.providerCode !== providerCode) continue;
    let url = buildProviderUrl(r.urlPattern, localId, embedded);
    if (urlSuffix !== undefined) url += urlSuffix;
    // Precomputed from the link checks (registry-snapshot.ts rankNamespace). With a single resource the
    // reference never calls its recommender, so even a deprecated one gets 100; the URL is looked at only
    // when the pattern leaves its EBI hosting to the identifier.
    const ifEbi = r.recommendationIfEbiHosted;
    const recommendation =
      count === 1 ? ONLY_RESOURCE_RECOMMENDATION : ifEbi !== null && isEbiHostedUrl(url) ? ifEbi : r.recommendation;
    resolved.push({
      id: r.id,
      mirId: r.mirId,
      providerCode: r.providerCode,
      compactIdentifierResolvedUrl: url,
      description: r.description,
      institution: r.institution,
      location: r.location,
      official: r.official,
      resourceHomeUrl: r.resourceHomeUrl,
      recommendation,
      namespacePrefix: parsed.namespace,
      deprecatedNamespace: parsed.deprecatedNamespace,
      namespaceDeprecationDate: parsed.namespaceDeprecationDate,
      deprecatedResource: r.deprecated,
      resourceDeprecationDate: r.deprecationDate,
      renderDeprecatedLanding: parsed.renderDeprecatedLanding || r.renderDeprecatedLanding,
      protectedUrls: r.protectedUrls,
      renderProtectedLanding: r.renderProtectedLanding,
      authHelpUrl: r.authHelpUrl,
      authHelpDescription: r.authHelpDescription,
    });
  }
  const resolution = found(resolved, parsed, namespace, synonym);
  if (canonicalCompactIdentifier !== undefined) resolution.canonicalCompactIdentifier = canonicalCompactIdentifier;
  if (luiSuffix !== undefined) resolution.luiSuffix = luiSuffix;
  return resolution;
}

function found(
  resolvedResources: ResolvedResource[],
  parsedCompactIdentifier: ParsedCompactId,
  namespace: NamespaceEntry | undefined,
  prefixSynonym: string | null,
): Resolved {
  return { kind: 'resolved', resolvedResources, parsedCompactIdentifier, namespace, prefixSynonym };
}

/** Neither resolver succeeded: the reference joins both messages. */
function notResolved(raw: string, reason: UnresolvedReason, compactIdMessage: string): Unresolved {
  return { kind: 'unresolved', reason, message: `Resolution request '${raw}' is NOT A NAMESPACE; ${compactIdMessage}` };
}

/** The compact-id resolver succeeded with nothing to offer: only its own message is shown. */
function resolvedWithoutResources(reason: UnresolvedReason, message: string): Unresolved {
  return { kind: 'unresolved', reason, message };
}

const NAMESPACE_PAGE_EXPLANATION = 'Namespace resolution to identifiers.org Central Registry';
const UNITED_KINGDOM: LocationView = Object.freeze({ countryCode: 'GB', countryName: 'United Kingdom' });
const CENTRAL_REGISTRY_INSTITUTION: InstitutionView = Object.freeze({
  id: 0,
  name: 'EMBL-EBI',
  homeUrl: 'https://www.ebi.ac.uk/',
  description: 'Identifiers.org Central Registry',
  rorId: null,
  location: UNITED_KINGDOM,
});
const NAMESPACE_PAGE_RECOMMENDATION: Recommendation = Object.freeze({
  recommendationIndex: 100,
  recommendationExplanation: NAMESPACE_PAGE_EXPLANATION,
});

/**
 * The reference's synthetic "central registry" resource for a bare namespace. Its identity fields (id 0,
 * null MIR id, provider `ebi`, the EMBL-EBI institution, the explanation) are kept verbatim because clients
 * recognise a namespace answer by them. Only the URLs differ: the reference hard-codes
 * registry.identifiers.org, which would send users of this deployment to another registry; and it builds
 * the page URL from the prefix as typed (`/registry/Taxonomy`), whereas the registry's own prefix always
 * names an existing page.
 */
function namespacePageResource(namespace: NamespaceEntry, publicRegistryUrl: string): ResolvedResource {
  const registryUrl = publicRegistryUrl.endsWith('/') ? publicRegistryUrl.slice(0, -1) : publicRegistryUrl;
  return {
    id: 0,
    mirId: null,
    providerCode: 'ebi',
    compactIdentifierResolvedUrl: `${registryUrl}/registry/${namespace.prefix}`,
    description: NAMESPACE_PAGE_EXPLANATION,
    institution: CENTRAL_REGISTRY_INSTITUTION,
    location: UNITED_KINGDOM,
    official: true,
    resourceHomeUrl: registryUrl,
    recommendation: NAMESPACE_PAGE_RECOMMENDATION,
    namespacePrefix: null,
    deprecatedNamespace: false,
    namespaceDeprecationDate: null,
    deprecatedResource: false,
    resourceDeprecationDate: null,
    renderDeprecatedLanding: false,
    protectedUrls: false,
    renderProtectedLanding: false,
    authHelpUrl: null,
    authHelpDescription: null,
  };
}

/**
 * Spring `StringUtils.hasText`: some character that Java's `Character.isWhitespace` does not call
 * whitespace. Unlike `String.prototype.trim`, no-break spaces count as text, so `\u00a0/taxonomy:9606`
 * filters by that provider code as the reference does.
 */
function hasText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    if (!isJavaWhitespace(value.charCodeAt(i))) return true;
  }
  return false;
}

function isJavaWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x1680) return false;
  if (code === 0x00a0 || code === 0x2007 || code === 0x202f) return false;
  return code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x205f || code === 0x3000;
}
