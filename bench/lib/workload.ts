/**
 * What every benchmark's request lists are made of: the request as the load generator sends it, the
 * namespaces they are built from (a dataset's, or synthetic ones of the same shape), and a fixed
 * pseudo-random order, so that every run sends the same requests.
 */
import { deriveCanonicalPrefix } from '../../src/core/compact-id-parser.js';
import { matchesLuiPattern } from '../../src/core/lui-pattern.js';

export interface WorkloadResource {
  providerCode: string;
  sampleId: string | null;
  urlPattern: string;
  deprecated: boolean;
}

export interface WorkloadNamespace {
  prefix: string;
  pattern: string;
  sampleId: string;
  namespaceEmbeddedInLui: boolean;
  deprecated: boolean;
  resources: readonly WorkloadResource[];
}

/** One request as the load generator sends it; `expectedStatus` is filled by checking it once. */
export interface BenchRequest {
  kind: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** What the request is meant to get (e.g. 200 for a hit); differs from `expectedStatus` for odd data. */
  intendedStatus: number;
  /** What the server answered when the request was sent once before the load. */
  expectedStatus?: number;
  /** The ETag of that answer, if it had one. */
  etag?: string;
}

/** mulberry32: a tiny seeded generator, so the order is the same on every run and machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffled<T>(items: readonly T[], seed = 20261122): T[] {
  const out = [...items];
  const random = seededRandom(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * The LUI of a sample id. Embedded namespaces carry their prefix in the LUI, spelled as the pattern spells it
 * (`CHEBI:36927`); the dataset's sample ids of those namespaces omit it.
 */
export function luiOf(ns: WorkloadNamespace, sampleId: string): string {
  if (!ns.namespaceEmbeddedInLui || matchesLuiPattern(ns.pattern, sampleId)) return sampleId;
  const spellings = [deriveCanonicalPrefix(ns.pattern, ns.prefix), ns.prefix.toUpperCase(), ns.prefix].filter((s): s is string => s !== null);
  for (const spelling of spellings) {
    const lui = `${spelling}:${sampleId}`;
    if (matchesLuiPattern(ns.pattern, lui)) return lui;
  }
  return `${spellings[0]}:${sampleId}`;
}
