/**
 * The registry benchmark's request lists. Each is in a fixed pseudo-random order (the resolver benchmark's
 * seeded shuffle), so every run sends the same requests.
 */
import { shuffled, type BenchRequest } from '../lib/workload.js';

export const PAGE_SIZE = 20;
const HAL_ACCEPT = { Accept: 'application/hal+json' };
export const DATASET_PATH = '/resolutionApi/getResolverDataset';

/** Every page of `size` namespaces sorted by name, from the first to the last, in a shuffled order. */
export function browseRequests(namespaceCount: number, size = PAGE_SIZE): BenchRequest[] {
  const pages = Math.max(1, Math.ceil(namespaceCount / size));
  const requests = Array.from({ length: pages }, (_, page): BenchRequest => ({
    kind: 'browse',
    method: 'GET',
    path: `/restApi/namespaces?page=${page}&size=${size}&sort=name,asc`,
    headers: HAL_ACCEPT,
    intendedStatus: 200,
  }));
  return shuffled(requests, 20261123);
}

function startsOf(prefixes: readonly string[], length: number): string[] {
  return [...new Set(prefixes.filter((p) => p.length >= length).map((p) => p.slice(0, length)))].sort();
}

export interface SearchStarts {
  /** Every distinct 1-, 2- and 3-character start of a real prefix. */
  real: string[];
  /** Starts of synthetic prefixes: every 1-letter one, and seeded samples of the 2- and 3-letter ones. */
  synthetic: string[];
  /** Both, without duplicates: what the requests ask for. */
  all: string[];
}

/**
 * The prefix starts searched: all of the real registry's 1–3-character starts, plus as many drawn from the
 * synthetic prefixes (all 26 single letters, then 2- and 3-letter starts in the proportions 1:2). The same
 * list is sent at both sizes, so the two figures differ by the registry only.
 */
export function searchStarts(realPrefixes: readonly string[], syntheticPrefixes: readonly string[]): SearchStarts {
  const real = [1, 2, 3].flatMap((length) => startsOf(realPrefixes, length));
  const budget = Math.max(0, real.length - 26);
  const twoLetters = shuffled(startsOf(syntheticPrefixes, 2), 11).slice(0, Math.round(budget / 3));
  const threeLetters = shuffled(startsOf(syntheticPrefixes, 3), 13).slice(0, budget - twoLetters.length);
  const synthetic = [...startsOf(syntheticPrefixes, 1), ...twoLetters, ...threeLetters];
  return { real, synthetic, all: [...new Set([...real, ...synthetic])] };
}

export function searchRequests(starts: readonly string[], size = PAGE_SIZE): BenchRequest[] {
  const requests = starts.map(
    (start): BenchRequest => ({
      kind: 'search',
      method: 'GET',
      path: `/restApi/namespaces/search/findByPrefixStartsWith?prefixStart=${encodeURIComponent(start)}&page=0&size=${size}`,
      headers: HAL_ACCEPT,
      intendedStatus: 200,
    }),
  );
  return shuffled(requests, 20261124);
}

/** The whole dataset, gzip accepted: a full download. */
export function datasetGzipRequest(): BenchRequest {
  return { kind: 'dataset-gzip', method: 'GET', path: DATASET_PATH, headers: { 'Accept-Encoding': 'gzip' }, intendedStatus: 200 };
}

/** A revalidation with the gzip representation's ETag: 304, no body. */
export function datasetNotModifiedRequest(etag: string): BenchRequest {
  return {
    kind: 'dataset-304',
    method: 'GET',
    path: DATASET_PATH,
    headers: { 'Accept-Encoding': 'gzip', 'If-None-Match': etag },
    intendedStatus: 304,
  };
}

/** What a browser sends: the registry answers /registry/{prefix} with the namespace page rather than a redirect. */
const BROWSER_ACCEPT = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** The namespace page of every prefix, as a browser asks for it, in a fixed shuffled order. */
export function namespacePageRequests(prefixes: readonly string[]): BenchRequest[] {
  const requests = prefixes.map(
    (prefix): BenchRequest => ({
      kind: 'namespace-page',
      method: 'GET',
      path: `/registry/${encodeURIComponent(prefix)}`,
      headers: BROWSER_ACCEPT,
      intendedStatus: 200,
    }),
  );
  return shuffled(requests, 20261125);
}
