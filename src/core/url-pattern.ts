/** Provider URL building from a resource's URL pattern, as the reference's `ResolverDataHelper` does. */

const ID_PLACEHOLDER = '{$id}';

/**
 * The part of an embedded LUI after its first `:`, or `""` when it has none. Registry URL patterns of
 * embedded namespaces carry the prefix themselves (`...chebiId=CHEBI:{$id}`), so only this part goes in.
 */
export function trimOut(localId: string): string {
  const colon = localId.indexOf(':');
  return colon === -1 ? '' : localId.slice(colon + 1);
}

/**
 * Replaces every `{$id}` in `urlPattern` with the LUI, literally: no escaping and no encoding, like the
 * reference. `String.prototype.replace` is avoided because a LUI containing `$&` or `$'` would be expanded.
 */
export function buildProviderUrl(urlPattern: string, localId: string, namespaceEmbeddedInLui: boolean): string {
  const id = namespaceEmbeddedInLui ? trimOut(localId) : localId;
  let at = urlPattern.indexOf(ID_PLACEHOLDER);
  if (at === -1) return urlPattern;
  let url = '';
  let from = 0;
  while (at !== -1) {
    url += urlPattern.slice(from, at) + id;
    from = at + ID_PLACEHOLDER.length;
    at = urlPattern.indexOf(ID_PLACEHOLDER, from);
  }
  return url + urlPattern.slice(from);
}

/**
 * The URL of a resource's sample record, as resolving `prefix:sampleId` would build it. Sample ids of
 * embedded namespaces are stored without the prefix in the registry (`0000146` for BTO) but some are
 * written with it (`CHEBI:36927`); resolution takes the part after the prefix either way.
 */
export function buildSampleUrl(urlPattern: string, sampleId: string, prefix: string, namespaceEmbeddedInLui: boolean): string {
  const carriesPrefix = namespaceEmbeddedInLui && sampleId.toLowerCase().startsWith(`${prefix.toLowerCase()}:`);
  return buildProviderUrl(urlPattern, sampleId, carriesPrefix);
}
