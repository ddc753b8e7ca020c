import type { ResourceEntry } from './registry-snapshot.js';
import type { ResolvedResource, ResolveResult } from './resolve.js';

/**
 * Writes a resolution answer as JSON text, byte for byte what JSON.stringify(result.body) gives, but
 * without serialising the unchanging parts of each resolved resource (institution with its long
 * description, location, flags) on every request: they are serialised once per snapshot entry and
 * reused. Only the provider URL and the recommendation, which depend on the identifier, are written
 * per request.
 */

interface Fragments {
  beforeUrl: string;
  beforeRecommendation: string;
  afterRecommendation: string;
}

// Sentinels never produced by real values: JSON.stringify writes U+0000 as the six characters \u0000.
const URL_MARK = '\u0000url\u0000';
const RECOMMENDATION_MARK = '\u0000rec\u0000';
const URL_JSON = JSON.stringify(URL_MARK);
const RECOMMENDATION_JSON = JSON.stringify(RECOMMENDATION_MARK);

// Keyed by the snapshot's resource entry: a refreshed namespace brings new entries, so stale text is
// never reused, and entries dropped from the registry are collected with their fragments.
const cache = new WeakMap<ResourceEntry, Fragments>();

function fragmentsOf(entry: ResourceEntry, resolved: ResolvedResource): Fragments {
  let fragments = cache.get(entry);
  if (!fragments) {
    const text = JSON.stringify({ ...resolved, compactIdentifierResolvedUrl: URL_MARK, recommendation: RECOMMENDATION_MARK });
    const urlAt = text.indexOf(URL_JSON);
    const recAt = text.indexOf(RECOMMENDATION_JSON);
    fragments = {
      beforeUrl: text.slice(0, urlAt),
      beforeRecommendation: text.slice(urlAt + URL_JSON.length, recAt),
      afterRecommendation: text.slice(recAt + RECOMMENDATION_JSON.length),
    };
    cache.set(entry, fragments);
  }
  return fragments;
}

/** The `resolvedResources` array of a resolution as JSON text ("null" when there is none). */
export function resolvedResourcesJson(result: ResolveResult): string {
  const resolved = result.body.payload.resolvedResources;
  const namespace = result.namespace;
  if (!resolved) return 'null';
  if (!namespace) return JSON.stringify(resolved);
  const entries = namespace.resources;
  let json = '[';
  let e = 0;
  for (let i = 0; i < resolved.length; i++) {
    const r = resolved[i]!;
    // Resolved resources keep the namespace's order (a provider code only filters), so one forward walk
    // pairs each with its entry.
    while (e < entries.length && entries[e]!.id !== r.id) e++;
    const entry = entries[e];
    if (!entry) return JSON.stringify(resolved);
    const f = fragmentsOf(entry, r);
    if (i > 0) json += ',';
    json += f.beforeUrl + JSON.stringify(r.compactIdentifierResolvedUrl) + f.beforeRecommendation + JSON.stringify(r.recommendation) + f.afterRecommendation;
  }
  return json + ']';
}

export function serializeResolveResult(result: ResolveResult): string {
  const { body } = result;
  if (result.status !== 200 || !body.payload.resolvedResources) return JSON.stringify(body);
  return `{"apiVersion":"1.0","errorMessage":null,"payload":{"resolvedResources":${resolvedResourcesJson(result)},"parsedCompactIdentifier":${JSON.stringify(body.payload.parsedCompactIdentifier)}}}`;
}
