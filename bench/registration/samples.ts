/**
 * Field values drawn from the real dataset for the validator payloads: what a registration form would
 * send for a namespace or a provider much like the registered ones (names, descriptions, locations,
 * prefixes and provider codes, taken and free). Each pool is in a fixed pseudo-random order.
 */
import type { DatasetNamespace } from '../../src/importer/dataset.schema.js';
import { luiOf, shuffled } from '../lib/workload.js';

export interface ProviderInNamespace {
  namespacePrefix: string;
  providerCode: string;
}

export interface RegistrationSamples {
  namespaceNames: string[];
  /** Texts longer than the 50-character minimum once whitespace is collapsed, and at most 2,000 long. */
  namespaceDescriptions: string[];
  providerNames: string[];
  providerDescriptions: { long: string[]; short: string[] };
  institutionNames: string[];
  institutionDescriptions: { long: string[]; short: string[] };
  countryCodes: string[];
  /** Registered prefixes as stored (some hold a dash: they fail the requested-prefix syntax). */
  takenPrefixes: string[];
  activePrefixes: string[];
  deprecatedPrefixes: string[];
  /** Well-formed prefixes no namespace has, derived from registered ones (`<prefix>.v2`). */
  freePrefixes: string[];
  /** Provider codes of the registry that are no prefix (a prefix request may take them). */
  freeProviderCodes: string[];
  /** A provider of a namespace that is not deprecated, whose code is no prefix. */
  providersInNamespaces: ProviderInNamespace[];
  /** Namespaces that are not deprecated with the lower-cased codes of their providers. */
  activeNamespaces: { prefix: string; codes: ReadonlySet<string> }[];
  /** Every namespace's own identifier pattern and sample identifier (with the prefix, for embedded ones). */
  patterns: { pattern: string; sampleId: string }[];
}

const MIN_DESCRIPTION = 50;
const MAX_TEXT = 2000;
const PREFIX_SYNTAX = /^[a-z0-9_.]+$/;

// The validators' length rule counts the text trimmed with whitespace runs collapsed.
const collapsed = (text: string) => text.trim().replace(/\s+/g, ' ').length;
const isLong = (text: string) => collapsed(text) > MIN_DESCRIPTION && text.length <= MAX_TEXT;

function splitByLength(texts: readonly (string | null)[], seed: number): { long: string[]; short: string[] } {
  const distinct = [...new Set(texts.filter((t): t is string => t !== null))];
  return {
    long: shuffled(distinct.filter(isLong), seed),
    short: shuffled(
      distinct.filter((t) => !isLong(t) && t.length <= MAX_TEXT && /\S/.test(t)),
      seed + 1,
    ),
  };
}

export function buildSamples(namespaces: readonly DatasetNamespace[]): RegistrationSamples {
  const taken = new Set(namespaces.map((ns) => ns.prefix.toLowerCase()));
  const resources = namespaces.flatMap((ns) => ns.resources.map((resource) => ({ ns, resource })));
  const isPrefix = (code: string) => taken.has(code.toLowerCase());
  const active = namespaces.filter((ns) => !ns.deprecated);
  const codesOf = (ns: DatasetNamespace) => new Set(ns.resources.map((r) => r.providerCode.toLowerCase()).filter((c) => c !== ''));
  const freePrefixes = namespaces
    .map((ns) => `${ns.prefix.toLowerCase().replace(/[^a-z0-9_.]/g, '_')}.v2`)
    .filter((p) => PREFIX_SYNTAX.test(p) && !taken.has(p));
  return {
    namespaceNames: shuffled([...new Set(namespaces.map((ns) => ns.name))], 101),
    namespaceDescriptions: splitByLength(
      namespaces.map((ns) => ns.description),
      103,
    ).long,
    providerNames: shuffled([...new Set(resources.map(({ resource }) => resource.name))], 105),
    providerDescriptions: splitByLength(
      resources.map(({ resource }) => resource.description),
      107,
    ),
    institutionNames: shuffled([...new Set(resources.map(({ resource }) => resource.institution.name))], 109),
    institutionDescriptions: splitByLength(
      resources.map(({ resource }) => resource.institution.description),
      111,
    ),
    countryCodes: shuffled(
      [...new Set(resources.flatMap(({ resource }) => [resource.location.countryCode, resource.institution.location.countryCode]))],
      113,
    ),
    takenPrefixes: shuffled(
      namespaces.map((ns) => ns.prefix),
      115,
    ),
    activePrefixes: shuffled(
      active.map((ns) => ns.prefix),
      117,
    ),
    deprecatedPrefixes: shuffled(
      namespaces.filter((ns) => ns.deprecated).map((ns) => ns.prefix),
      119,
    ),
    freePrefixes: shuffled(freePrefixes, 121),
    freeProviderCodes: shuffled([...new Set(resources.map(({ resource }) => resource.providerCode).filter((c) => c !== '' && !isPrefix(c)))], 123),
    providersInNamespaces: shuffled(
      resources
        .filter(({ ns, resource }) => !ns.deprecated && resource.providerCode !== '' && !isPrefix(resource.providerCode))
        .map(({ ns, resource }) => ({ namespacePrefix: ns.prefix, providerCode: resource.providerCode })),
      125,
    ),
    activeNamespaces: shuffled(
      active.map((ns) => ({ prefix: ns.prefix, codes: codesOf(ns) })),
      127,
    ),
    patterns: shuffled(
      namespaces.map((ns) => ({ pattern: ns.pattern, sampleId: luiOf(ns, ns.sampleId) })),
      129,
    ),
  };
}

/** The i-th item of a pool, cycling. */
export function pick<T>(pool: readonly T[], i: number): T {
  if (pool.length === 0) throw new Error('empty sample pool: the dataset lacks the values this payload needs');
  return pool[i % pool.length]!;
}
