/**
 * The owl:sameAs links the SPARQL endpoint adds for the IRIs a query names (identifiers.org's endpoint does
 * the same for federated queries): a resolver URI of a compact identifier (`https://identifiers.org/
 * taxonomy:9606`, the deployment's own `{PUBLIC_RESOLVER_URL}/taxonomy:9606`, http or https) is the same as
 * each provider's URL for that identifier, and a provider's URL is the same as the identifier's resolver
 * URIs. Resolution and reverse lookup are the resolver's own (resolve.ts, reverse-lookup.ts), so a link
 * exists exactly when the resolver would send the URI there or take the URL back.
 */
import { resolveCompactId } from './resolve.js';
import type { RegistrySnapshot } from './registry-snapshot.js';
import type { ReverseIndex } from './reverse-index.js';
import { reverseByPrefix } from './reverse-lookup.js';
import { resolverUrlPath } from './resolver-url-lookup.js';
import { canonicalCompactId } from './lui-rules.js';

/** The longest IRI looked up (the resolver's reverse lookup refuses longer URLs alike). */
export const MAX_LINKED_IRI_LENGTH = 2048;

export interface SameAsOptions {
  /** This deployment's resolver, without a trailing slash. */
  publicResolverUrl: string;
  /** The registry's page base, which resolution names for a bare prefix (never linked here). */
  publicRegistryUrl: string;
}

/** A link `subject owl:sameAs object`, both IRIs. */
export type SameAsLink = readonly [subject: string, object: string];

// IRIREF of the SPARQL grammar: `<` then anything but these (control characters and space among them), then `>`.
// eslint-disable-next-line no-control-regex
const IRI_REF = /<([^<>"{}|^`\\\u0000-\u0020]*)>/g;

/** The distinct http(s) IRIs written out in a query's text (`<...>`), at most `max`, in order of appearance. */
export function irisInQuery(query: string, max: number): string[] {
  const found = new Set<string>();
  for (const match of query.matchAll(IRI_REF)) {
    if (found.size >= max) break;
    const iri = match[1]!;
    if (iri.length <= MAX_LINKED_IRI_LENGTH && /^https?:\/\//i.test(iri)) found.add(iri);
  }
  return [...found];
}

/** The resolver URIs of a compact identifier: identifiers.org's, https and http, and this deployment's. */
export function resolverUris(curie: string, publicResolverUrl: string): string[] {
  return [...new Set([`https://identifiers.org/${curie}`, `http://identifiers.org/${curie}`, `${publicResolverUrl}/${curie}`])];
}

/**
 * The links for each IRI: a resolver URI gives its resolver URIs (itself as written among them) the
 * providers' URLs; any other http(s) IRI a provider's URL pattern fits (with a LUI its namespace accepts)
 * gives the IRI the compact identifier's resolver URIs. Deduplicated.
 */
export function sameAsLinks(iris: readonly string[], snapshot: RegistrySnapshot, index: ReverseIndex, options: SameAsOptions): SameAsLink[] {
  const links = new Map<string, SameAsLink>();
  const add = (subject: string, object: string) => {
    if (subject !== object) links.set(`${subject} ${object}`, [subject, object]);
  };
  for (const iri of iris) {
    const path = resolverUrlPath(iri, options.publicResolverUrl);
    if (path !== null) {
      // Resolved as the resolver resolves its path: synonyms, another case, a LUI to canonicalise, a provider code.
      const resolution = resolveCompactId(path, snapshot, { publicRegistryUrl: options.publicRegistryUrl });
      if (resolution.kind !== 'resolved' || resolution.namespace === undefined) continue;
      const { namespace, parsedCompactIdentifier } = resolution;
      const curie = canonicalCompactId(namespace.prefix, parsedCompactIdentifier.localId!, namespace.namespaceEmbeddedInLui);
      const subjects = new Set([iri, ...resolverUris(curie, options.publicResolverUrl)]);
      for (const resource of resolution.resolvedResources) {
        for (const subject of subjects) add(subject, resource.compactIdentifierResolvedUrl);
      }
      continue;
    }
    const match = reverseByPrefix(index, { url: iri }, { publicResolverUrl: options.publicResolverUrl });
    if (!match?.possible_resolver_curie) continue;
    for (const uri of resolverUris(match.possible_resolver_curie, options.publicResolverUrl)) add(iri, uri);
  }
  return [...links.values()];
}

// Characters a URL may carry in the wild (`?id[]=1`, `[IMGT:'M1']`) that an IRI may not hold as they are.
const NOT_IN_IRI = /[\s<>"{}|\\^`[\]]/g;

/**
 * A URL as an IRI: the characters an IRI may not hold percent-encoded (`[` as `%5B`, a second `#` as `%23`),
 * as a browser sends them, so that a provider URL with them is still linked. The rest is left as written.
 */
export function asIri(url: string): string {
  const escaped = url.replace(NOT_IN_IRI, encodeURIComponent);
  // One fragment only: a `#` within it (`/entry/x#x#table`) is part of the fragment's text.
  const fragment = escaped.indexOf('#');
  return fragment === -1 ? escaped : escaped.slice(0, fragment + 1) + escaped.slice(fragment + 1).replaceAll('#', '%23');
}
