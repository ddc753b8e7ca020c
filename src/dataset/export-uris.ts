import { deriveCanonicalPrefix } from '../core/compact-id-parser.js';
import { matchesLuiPattern } from '../core/lui-pattern.js';

/** The public base URLs the exports' URIs are made of (PUBLIC_RESOLVER_URL, PUBLIC_REGISTRY_URL). */
export interface ExportUrls {
  publicResolverUrl: string;
  publicRegistryUrl: string;
}

/** What of a namespace its URI prefix depends on. */
export interface UriPrefixSource {
  prefix: string;
  pattern: string;
  sampleId: string | null;
  namespaceEmbeddedInLui: boolean;
}

/**
 * The spelling of the prefix an embedded namespace's LUIs start with (`GO` for `go`, whose LUIs are
 * `GO:0006915`): the one the pattern spells, else the first of upper and lower case that makes the sample id
 * a valid LUI (`^(P)?EO\:\d{7}$` spells no single one), else the prefix as registered.
 */
function embeddedLuiPrefix(source: UriPrefixSource): string {
  const derived = deriveCanonicalPrefix(source.pattern, source.prefix);
  const { sampleId } = source;
  if (sampleId !== null) {
    for (const candidate of new Set([derived ?? source.prefix, source.prefix.toUpperCase(), source.prefix])) {
      if (matchesLuiPattern(source.pattern, `${candidate}:${sampleId}`)) return candidate;
    }
  }
  return derived ?? source.prefix;
}

/**
 * The namespace's URI prefix at the resolver: a compact identifier `prefix:id` is the URI `<uri prefix>id`,
 * the resolver's public form (`https://identifiers.org/taxonomy:9606`). For a namespace whose LUIs embed the
 * prefix the local part is what follows it (`go:0006915` is `https://identifiers.org/GO:0006915`), so the
 * URI prefix carries the LUI's own spelling, as the resolver's URLs do.
 */
export function uriPrefixOf(source: UriPrefixSource, publicResolverUrl: string): string {
  const luiPrefix = source.namespaceEmbeddedInLui ? embeddedLuiPrefix(source) : source.prefix;
  return `${publicResolverUrl}/${luiPrefix}:`;
}

/** The namespace's page in the registry area, which also answers its RDF (content negotiation). */
export const namespacePageBase = (publicRegistryUrl: string): string => `${publicRegistryUrl}/registry/`;
export const namespacePageUrl = (publicRegistryUrl: string, prefix: string): string =>
  namespacePageBase(publicRegistryUrl) + encodeURIComponent(prefix);

/** A resource's and an institution's HAL item (/restApi), the URIs they have in the RDF exports. */
export const resourceItemBase = (publicRegistryUrl: string): string => `${publicRegistryUrl}/restApi/resources/`;
export const institutionItemBase = (publicRegistryUrl: string): string => `${publicRegistryUrl}/restApi/institutions/`;

// An absolute http(s) IRI that Turtle and N-Triples can write between <> as it is (RFC 3987's excluded
// characters and white space refused). Stored URLs are free text: one that is not is written as a literal.
const WRITABLE_IRI = /^https?:\/\/[^\s<>"{}|\\^`\p{Cc}]+$/u;

export function isWritableIri(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.length <= 4000 && WRITABLE_IRI.test(value);
}
