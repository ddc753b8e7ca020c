/** The two resource fields `rewriteForEmbeddedPrefixes=true` may change. */
export interface RewritableResource {
  urlPattern: string;
  sampleId: string | null;
}

const PLACEHOLDER = '{$id}';

/**
 * The reference's `rewriteForEmbeddedPrefixes` for one resource of a namespace whose LUIs embed the prefix
 * (spec §3.3): when `PREFIX:` (any case) stands right before the first `{$id}`, it is cut from the URL
 * pattern so that a whole compact identifier can be substituted, and the sample id gains it in the URL's
 * spelling unless it already starts with it. Returns null where the rule does not change the resource.
 *
 * Where the reference would fail the whole answer (no `{$id}`, or `{$id}` too close to the start for the
 * prefix to precede it) or write nonsense (a null sample id becoming `BTO:null`), the resource is left
 * unchanged instead.
 */
export function rewriteForEmbeddedPrefix(prefix: string, resource: RewritableResource): RewritableResource | null {
  const { urlPattern, sampleId } = resource;
  if (sampleId === null) return null;
  const at = urlPattern.indexOf(PLACEHOLDER);
  const start = at - prefix.length - 1;
  if (at < 0 || start < 0) return null;
  const candidate = urlPattern.slice(start, at);
  const expected = `${prefix}:`;
  if (candidate.toLowerCase() !== expected.toLowerCase()) return null;
  return {
    urlPattern: urlPattern.slice(0, start) + urlPattern.slice(at),
    sampleId: sampleId.toLowerCase().startsWith(candidate.toLowerCase()) ? sampleId : candidate + sampleId,
  };
}
