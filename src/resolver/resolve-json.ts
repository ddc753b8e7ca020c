import type { InstitutionView, ResourceEntry } from '../core/registry-snapshot.js';
import type { Resolution, ResolvedResource } from '../core/resolve.js';

/**
 * Writes the resources of a resolution as JSON text, byte for byte what JSON.stringify gives, but
 * without serialising the unchanging parts of each resolved resource (institution with its long
 * description, location, flags) on every request: they are serialised once per snapshot entry and
 * reused. Only the provider URL, which depends on the identifier, is written per request; the
 * recommendation is one of the entry's precomputed, shared objects, so its text is kept with the entry's
 * fragments and written again only when the entry's recommendation object changes.
 */

import type { Recommendation } from '../core/recommendation.js';

interface Fragments {
  beforeUrl: string;
  beforeInstitution: string;
  institution: string;
  beforeRecommendation: string;
  afterRecommendation: string;
  /** The recommendation last written for this entry, and its JSON text. */
  recommendation: Recommendation | null;
  recommendationJson: string;
}

// Sentinels never produced by real values: JSON.stringify writes U+0000 as the six characters \u0000.
const URL_MARK = '\u0000url\u0000';
const RECOMMENDATION_MARK = '\u0000rec\u0000';
const INSTITUTION_MARK = '\u0000inst\u0000';
const URL_JSON = JSON.stringify(URL_MARK);
const RECOMMENDATION_JSON = JSON.stringify(RECOMMENDATION_MARK);
const INSTITUTION_JSON = JSON.stringify(INSTITUTION_MARK);

// Keyed by the snapshot's entries: a refreshed namespace brings new entries, so stale text is never
// reused, and entries dropped from the registry are collected with their text. An institution's JSON
// (often the longest part, with its description) is kept once however many resources share it.
const resourceCache = new WeakMap<ResourceEntry, Fragments>();
const institutionCache = new WeakMap<InstitutionView, string>();

function institutionJson(institution: InstitutionView): string {
  let json = institutionCache.get(institution);
  if (json === undefined) {
    json = JSON.stringify(institution);
    institutionCache.set(institution, json);
  }
  return json;
}

function fragmentsOf(entry: ResourceEntry, resolved: ResolvedResource): Fragments {
  let fragments = resourceCache.get(entry);
  if (!fragments) {
    const text = JSON.stringify({
      ...resolved,
      compactIdentifierResolvedUrl: URL_MARK,
      institution: INSTITUTION_MARK,
      recommendation: RECOMMENDATION_MARK,
    });
    const urlAt = text.indexOf(URL_JSON);
    const institutionAt = text.indexOf(INSTITUTION_JSON);
    const recAt = text.indexOf(RECOMMENDATION_JSON);
    fragments = {
      beforeUrl: text.slice(0, urlAt),
      beforeInstitution: text.slice(urlAt + URL_JSON.length, institutionAt),
      institution: institutionJson(resolved.institution),
      beforeRecommendation: text.slice(institutionAt + INSTITUTION_JSON.length, recAt),
      afterRecommendation: text.slice(recAt + RECOMMENDATION_JSON.length),
      recommendation: null,
      recommendationJson: '',
    };
    resourceCache.set(entry, fragments);
  }
  return fragments;
}

/** The `resolvedResources` array of a resolution as JSON text ("null" when there is none). */
export function resolvedResourcesJson(resolution: Resolution): string {
  if (resolution.kind !== 'resolved') return 'null';
  const resolved = resolution.resolvedResources;
  const namespace = resolution.namespace;
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
    if (f.recommendation !== r.recommendation) {
      f.recommendation = r.recommendation;
      f.recommendationJson = JSON.stringify(r.recommendation);
    }
    if (i > 0) json += ',';
    json +=
      f.beforeUrl + JSON.stringify(r.compactIdentifierResolvedUrl) + f.beforeInstitution + f.institution +
      f.beforeRecommendation + f.recommendationJson + f.afterRecommendation;
  }
  return json + ']';
}
