import type { Resolved } from '../core/resolve.js';

/**
 * The compact identifier a landing page (deprecated namespace or provider, protected provider) is sent for:
 * the request as written, except that a synonym gives way to its namespace's prefix (issue 15 item 1), so
 * that a redirect through a synonym goes exactly where the prefix's goes. An embedded LUI already starts
 * with the prefix as its pattern spells it.
 */
export function landingRequestOf(raw: string, resolution: Resolved): string {
  if (resolution.prefixSynonym === null) return raw;
  const { providerCode, namespace, localId, namespaceEmbeddedInLui } = resolution.parsedCompactIdentifier;
  if (namespace === null || localId === null) return raw;
  // A passed-through suffix (core/lui-suffix.ts) follows the LUI it was split from, so the landing page's
  // link resolves to the same URLs.
  const lui = resolution.luiSuffix === undefined ? localId : localId + resolution.luiSuffix;
  const curie = namespaceEmbeddedInLui ? lui : `${namespace}:${lui}`;
  return providerCode === null ? curie : `${providerCode}/${curie}`;
}
