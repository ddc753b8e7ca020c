/**
 * The benchmark's request lists, built from a dataset (or synthetic namespaces of the same shape): every
 * namespace's sample identifier, mixed with the other forms clients send, in a fixed pseudo-random order so
 * that every run sends the same requests.
 */
import { matchesLuiPattern } from '../../src/core/lui-pattern.js';
import { buildProviderUrl } from '../../src/core/url-pattern.js';
import { luiOf, shuffled, type BenchRequest, type WorkloadNamespace } from '../lib/workload.js';

export type ResolveKind = 'hit' | 'provider' | 'bare-prefix' | 'encoded' | 'miss' | 'bad-lui';

export interface ResolveItem {
  kind: ResolveKind;
  /** The compact identifier as a client means it (what a batch item carries). */
  id: string;
  /** The request path that sends it. */
  path: string;
}

const JSON_STATUS: Record<ResolveKind, number> = { hit: 200, provider: 200, 'bare-prefix': 200, encoded: 200, miss: 400, 'bad-lui': 400 };
// A browser gets a redirect for whatever resolves and the "resolution failed" page (404) otherwise.
const REDIRECT_STATUS: Record<ResolveKind, number> = { hit: 302, provider: 302, 'bare-prefix': 302, encoded: 302, miss: 404, 'bad-lui': 404 };

export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const PATH_SAFE = /^[A-Za-z0-9\-._~:/@!$&'()*+,;=]$/;

/** `/` + the identifier, percent-encoding only what may not stand in a path (space, `?`, `#`, `%`...). */
export function pathFor(id: string): string {
  let path = '/';
  for (const char of id) path += PATH_SAFE.test(char) ? char : encodeURIComponent(char);
  return path;
}

export function compactIdOf(ns: WorkloadNamespace, sampleId: string): string {
  return ns.namespaceEmbeddedInLui ? luiOf(ns, sampleId) : `${ns.prefix}:${sampleId}`;
}

const INVALID_LUI_CANDIDATES = ['~not~a~valid~id~', '!!', 'x y', '\u00e9\u00e9'];

/** A compact identifier of this namespace whose LUI its pattern refuses (the 400 "DOES NOT MATCH"), if any. */
function badLuiOf(ns: WorkloadNamespace): string | null {
  for (const candidate of INVALID_LUI_CANDIDATES) {
    const id = ns.namespaceEmbeddedInLui ? `${luiOf(ns, ns.sampleId).split(':')[0]}:${candidate}` : `${ns.prefix}:${candidate}`;
    const lui = ns.namespaceEmbeddedInLui ? id : candidate;
    if (!matchesLuiPattern(ns.pattern, lui)) return id;
  }
  return null;
}

/**
 * The resolution mix: each namespace's sample identifier (a hit), `provider/prefix:lui` for each provider
 * code, and for one namespace in four each of: the percent-encoded form, the bare prefix, an unknown prefix
 * (a miss) and a LUI the pattern refuses (a 400). Shuffled.
 */
export function buildResolveMix(namespaces: readonly WorkloadNamespace[]): ResolveItem[] {
  const prefixes = new Set(namespaces.map((ns) => ns.prefix.toLowerCase()));
  const items: ResolveItem[] = [];
  const add = (kind: ResolveKind, id: string, path = pathFor(id)) => items.push({ kind, id, path });
  namespaces.forEach((ns, index) => {
    const id = compactIdOf(ns, ns.sampleId);
    add('hit', id);
    // A provider code that is also a prefix reads as the legacy `prefix/...` form, not as a provider.
    const codes = new Set(ns.resources.map((r) => r.providerCode).filter((c) => c !== '' && !prefixes.has(c.toLowerCase()) && !/[/:]/.test(c)));
    for (const code of codes) add('provider', `${code}/${id}`);
    switch (index % 4) {
      case 0:
        add('encoded', id, `/${encodeURIComponent(id)}`);
        break;
      case 1:
        add('bare-prefix', ns.prefix);
        break;
      case 2:
        add('miss', `nosuchprefix${index}:${ns.sampleId}`);
        break;
      default: {
        const bad = badLuiOf(ns);
        if (bad !== null) add('bad-lui', bad);
      }
    }
  });
  return shuffled(items);
}

export function resolveJsonRequests(mix: readonly ResolveItem[]): BenchRequest[] {
  return mix.map((item) => ({
    kind: item.kind,
    method: 'GET',
    path: item.path,
    headers: { Accept: 'application/json' },
    intendedStatus: JSON_STATUS[item.kind],
  }));
}

/**
 * The JSON requests whose answer had an entity tag, each sent again with If-None-Match of the tag it got, as
 * a CDN or browser cache revalidates what it holds: each is answered 304 (call after checking them once).
 */
export function notModifiedRequests(checked: readonly BenchRequest[]): BenchRequest[] {
  return checked
    .filter((request) => request.etag !== undefined)
    .map((request) => ({
      kind: request.kind,
      method: request.method,
      path: request.path,
      headers: { ...request.headers, 'If-None-Match': request.etag! },
      intendedStatus: 304,
    }));
}

export function redirectRequests(mix: readonly ResolveItem[]): BenchRequest[] {
  return mix.map((item) => ({
    kind: item.kind,
    method: 'GET',
    path: item.path,
    headers: { Accept: BROWSER_ACCEPT },
    intendedStatus: REDIRECT_STATUS[item.kind],
  }));
}

/** The sample provider URL of every resource that is not deprecated (in a namespace that is not either). */
export function sampleProviderUrls(namespaces: readonly WorkloadNamespace[]): string[] {
  const urls: string[] = [];
  for (const ns of namespaces) {
    if (ns.deprecated) continue;
    for (const r of ns.resources) {
      if (r.deprecated || !r.urlPattern.includes('{$id}')) continue;
      urls.push(buildProviderUrl(r.urlPattern, luiOf(ns, r.sampleId || ns.sampleId), ns.namespaceEmbeddedInLui));
    }
  }
  return urls;
}

/** A slightly different URL for the same page: other scheme, `www.`, a trailing slash, a typo. */
export function alteredUrl(url: string, variant: number): string {
  const scheme = /^https?:\/\//i.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  switch (variant % 4) {
    case 0:
      return (scheme.toLowerCase() === 'https://' ? 'http://' : 'https://') + rest;
    case 1:
      return scheme + (rest.startsWith('www.') ? rest.slice(4) : `www.${rest}`);
    case 2:
      return url.endsWith('/') ? url.slice(0, -1) : `${url}/`;
    default: {
      // Drop one character from the middle of the host and path.
      const at = scheme.length + Math.floor(rest.length / 3);
      return url.slice(0, at) + url.slice(at + 1);
    }
  }
}

function reverseBody(url: string): string {
  return JSON.stringify({ apiVersion: '1.0', payload: { url } });
}

function reverseRequest(endpoint: 'byPrefix' | 'bySimilarity', kind: string, url: string): BenchRequest {
  return {
    kind,
    method: 'POST',
    path: `/reverse/${endpoint}`,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: reverseBody(url),
    intendedStatus: 200,
  };
}

export function byPrefixRequests(namespaces: readonly WorkloadNamespace[]): BenchRequest[] {
  return shuffled(sampleProviderUrls(namespaces).map((url) => reverseRequest('byPrefix', 'provider-url', url)));
}

export function bySimilarityRequests(namespaces: readonly WorkloadNamespace[]): BenchRequest[] {
  const urls = sampleProviderUrls(namespaces);
  return shuffled([
    ...urls.map((url) => reverseRequest('bySimilarity', 'provider-url', url)),
    ...urls.map((url, i) => reverseRequest('bySimilarity', 'altered-url', alteredUrl(url, i))),
  ]);
}

/** Bodies of POST /resolve/batch, `size` identifiers each, walking through the whole mix. */
export function batchBodies(mix: readonly ResolveItem[], size: number, count: number): string[] {
  const bodies: string[] = [];
  for (let b = 0; b < count; b++) {
    const compactIdentifiers = Array.from({ length: size }, (_, i) => mix[(b * size + i) % mix.length]!.id);
    bodies.push(JSON.stringify({ apiVersion: '1.0', payload: { compactIdentifiers } }));
  }
  return bodies;
}
