/** A namespace as the prefix maps see it. */
export interface PrefixMapNamespace {
  prefix: string;
  pattern: string;
  namespaceEmbeddedInLui: boolean;
  uriPrefix: string;
  synonyms: readonly string[];
}

/** The JSON-LD context's opening and closing: the entries, one a line, go between. */
export const CONTEXT_HEAD = '{\n  "@context": {\n';
export const CONTEXT_TAIL = '\n  }\n}\n';

/**
 * One term of the JSON-LD context: the prefix for its URI prefix. The URI prefix ends with `:`, a
 * gen-delim, so JSON-LD 1.1 takes the term as a prefix of compact IRIs (`taxonomy:9606`) without `@prefix`.
 */
export function contextEntry(ns: PrefixMapNamespace): string {
  return `    ${JSON.stringify(ns.prefix)}: ${JSON.stringify(ns.uriPrefix)}`;
}

export const PREFIX_MAP_HEAD = '[\n';
export const PREFIX_MAP_TAIL = '\n]\n';

/**
 * One record of the extended prefix map, with the field names of the curies/prefixmaps format. The URI
 * prefix synonyms are the synonyms' own URIs at the resolver. The pattern applies to the local part of a
 * compact identifier, so a namespace whose LUIs embed the prefix (pattern `^GO:\d{7}$`, local part
 * `0006915`) has none, and neither do its synonyms get URI prefixes (its LUIs keep the one spelling).
 */
export function prefixMapRecord(ns: PrefixMapNamespace, publicResolverUrl: string): string {
  const embedded = ns.namespaceEmbeddedInLui;
  const record = {
    prefix: ns.prefix,
    uri_prefix: ns.uriPrefix,
    prefix_synonyms: [...ns.synonyms],
    uri_prefix_synonyms: embedded ? [] : ns.synonyms.map((synonym) => `${publicResolverUrl}/${synonym}:`),
    ...(embedded ? {} : { pattern: ns.pattern }),
  };
  return `  ${JSON.stringify(record)}`;
}
