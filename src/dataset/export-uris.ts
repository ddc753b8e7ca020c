import { embeddedLuiPrefix, type WrittenFormSource } from '../core/lui-prefix.js';

/** The public base URLs the exports' URIs are made of (PUBLIC_RESOLVER_URL, PUBLIC_REGISTRY_URL). */
export interface ExportUrls {
  publicResolverUrl: string;
  publicRegistryUrl: string;
}

/**
 * The namespace's URI prefix at the resolver: a compact identifier `prefix:id` is the URI `<uri prefix>id`,
 * the resolver's public form (`https://identifiers.org/taxonomy:9606`). For a namespace whose LUIs embed the
 * prefix the local part is what follows it (`go:0006915` is `https://identifiers.org/GO:0006915`), so the
 * URI prefix carries the LUI's own spelling, as the resolver's URLs do.
 */
export function uriPrefixOf(source: WrittenFormSource, publicResolverUrl: string): string {
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
