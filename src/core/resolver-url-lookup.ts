/**
 * Reverse lookup of a compact-identifier resolver's own URL (issue 15 item 1): `https://identifiers.org/
 * ncbitaxon:9606`, or one of this deployment's (`{PUBLIC_RESOLVER_URL}/taxon:9606`), names its compact
 * identifier itself, possibly through a prefix synonym or in another case. Such a URL is read as the
 * resolver reads its path, and answered with the canonical compact identifier (`taxonomy:9606`), instead of
 * being matched against provider URL patterns, none of which is a resolver's.
 */
import { parseCompactIdWithNamespace } from './compact-id-parser.js';
import { matchesLuiPattern } from './lui-pattern.js';
import type { RegistrySnapshot } from './registry-snapshot.js';
import type { ReverseMatch } from './reverse-lookup.js';

const IDENTIFIERS_ORG = /^https?:\/\/(?:www\.)?identifiers\.org\//i;
// The longest compact identifier read here; the resolver's own paths are bounded alike.
const MAX_PATH = 4096;

/** The compact identifier a resolver URL names (percent-decoded, without query or fragment), or null. */
export function resolverUrlPath(url: string, publicResolverUrl: string): string | null {
  const base = `${publicResolverUrl.replace(/\/+$/, '')}/`;
  let rest: string | null = null;
  const identifiersOrg = IDENTIFIERS_ORG.exec(url);
  if (identifiersOrg) rest = url.slice(identifiersOrg[0].length);
  else if (url.length >= base.length && url.slice(0, base.length).toLowerCase() === base.toLowerCase()) rest = url.slice(base.length);
  if (rest === null) return null;
  const end = rest.search(/[?#]/);
  const path = end === -1 ? rest : rest.slice(0, end);
  if (path === '' || path.length > MAX_PATH) return null;
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}

/** The match for a resolver URL naming a namespace's compact identifier; null for any other URL. */
export function reverseResolverUrl(url: string, snapshot: RegistrySnapshot, publicResolverUrl: string): ReverseMatch | null {
  const path = resolverUrlPath(url, publicResolverUrl);
  if (path === null) return null;
  const { parsed, namespace } = parseCompactIdWithNamespace(path, snapshot);
  if (namespace === null || parsed.namespace === null || parsed.localId === null) return null;
  const matches = matchesLuiPattern(namespace.pattern, parsed.localId);
  const curie = namespace.namespaceEmbeddedInLui ? parsed.localId : `${namespace.prefix}:${parsed.localId}`;
  return {
    prefix: namespace.prefix,
    possible_resolver_url: matches ? `${publicResolverUrl}/${curie}` : null,
    possible_resolver_curie: matches ? curie : null,
    lui_pattern_match: matches,
    similarity_score: 100,
  };
}
