/**
 * The hand-written sample registry (seeds/sample-registry.json) is loaded on first start when the registry is
 * empty. It is a small selection from the identifiers.org dataset in exactly the reference's format, chosen so
 * that a demo and the end-to-end tests meet every awkward case of the real data. These tests pin each of those
 * cases, so that editing the seed cannot silently drop one.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { countries } from '../../migrations/data/iso-3166-1.js';
import type { DatasetInstitution, DatasetNamespace, DatasetResource } from '../../src/importer/dataset.schema.js';
import { describeRequiring, registryDataset, type Requirement } from '../support/requirements.js';

/** The seed spells out every field of the reference's records, ids and sample ids included. */
type Institution = DatasetInstitution & { id: number };
type Resource = Omit<DatasetResource, 'id' | 'sampleId' | 'institution'> & { id: number; sampleId: string; institution: Institution };
type Namespace = Omit<DatasetNamespace, 'id' | 'successor' | 'resources'> & { id: number; successor: string | null; resources: Resource[] };

// The key sets of the reference dataset (identifiers.org registry-data full.json, payload.namespaces).
const NAMESPACE_KEYS = [
  'created',
  'deprecated',
  'deprecationDate',
  'deprecationOfflineDate',
  'deprecationStatement',
  'description',
  'id',
  'infoOnPostmortemAccess',
  'mirId',
  'modified',
  'name',
  'namespaceEmbeddedInLui',
  'pattern',
  'prefix',
  'renderDeprecatedLanding',
  'resources',
  'sampleId',
  'successor',
];
const RESOURCE_KEYS = [
  'authHelpDescription',
  'authHelpUrl',
  'deprecated',
  'deprecationDate',
  'deprecationOfflineDate',
  'deprecationStatement',
  'description',
  'id',
  'institution',
  'location',
  'mirId',
  'name',
  'official',
  'protectedUrls',
  'providerCode',
  'renderDeprecatedLanding',
  'renderProtectedLanding',
  'resourceHomeUrl',
  'sampleId',
  'urlPattern',
];
const INSTITUTION_KEYS = ['description', 'homeUrl', 'id', 'location', 'name', 'rorId'];
const LOCATION_KEYS = ['countryCode', 'countryName'];

type FieldType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'string|null';

const NAMESPACE_TYPES: Record<string, FieldType> = {
  created: 'string',
  deprecated: 'boolean',
  deprecationDate: 'string|null',
  deprecationOfflineDate: 'string|null',
  deprecationStatement: 'string|null',
  description: 'string',
  id: 'number',
  infoOnPostmortemAccess: 'string|null',
  mirId: 'string',
  modified: 'string',
  name: 'string',
  namespaceEmbeddedInLui: 'boolean',
  pattern: 'string',
  prefix: 'string',
  renderDeprecatedLanding: 'boolean',
  resources: 'array',
  sampleId: 'string',
  successor: 'string|null',
};
const RESOURCE_TYPES: Record<string, FieldType> = {
  authHelpDescription: 'string|null',
  authHelpUrl: 'string|null',
  deprecated: 'boolean',
  deprecationDate: 'string|null',
  deprecationOfflineDate: 'string|null',
  deprecationStatement: 'string|null',
  description: 'string',
  id: 'number',
  institution: 'object',
  location: 'object',
  mirId: 'string',
  name: 'string',
  official: 'boolean',
  protectedUrls: 'boolean',
  providerCode: 'string',
  renderDeprecatedLanding: 'boolean',
  renderProtectedLanding: 'boolean',
  resourceHomeUrl: 'string',
  sampleId: 'string',
  urlPattern: 'string',
};
const INSTITUTION_TYPES: Record<string, FieldType> = {
  description: 'string',
  homeUrl: 'string',
  id: 'number',
  location: 'object',
  name: 'string',
  rorId: 'string|null',
};

const SEED_URL = new URL('../../seeds/sample-registry.json', import.meta.url);
const raw: unknown = JSON.parse(readFileSync(SEED_URL, 'utf8'));
const namespaces = raw as Namespace[];
const resources = namespaces.flatMap((ns) => ns.resources.map((resource) => ({ ns, resource })));
const isoCountries = new Map<string, string>(countries.map(([code, name]) => [code, name]));

function byPrefix(prefix: string): Namespace {
  const ns = namespaces.find((n) => n.prefix === prefix);
  if (!ns) throw new Error(`namespace ${prefix} is missing from the sample registry`);
  return ns;
}

/** The stored pattern, anchored as a whole, in JavaScript syntax without the u flag (as the resolver does). */
function luiRegExp(pattern: string): RegExp {
  return new RegExp('^(?:' + pattern + ')$');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** For an embedded namespace, the prefix as the pattern writes it (GO, CHEBI, did, swh, ...). */
function embeddedPrefix(ns: Namespace): string {
  const m = new RegExp('^\\^?(' + escapeRegExp(ns.prefix) + '):', 'i').exec(ns.pattern);
  if (!m?.[1]) throw new Error(`pattern of embedded namespace ${ns.prefix} does not start with its prefix`);
  return m[1];
}

/** The sample LUI as it is matched against the pattern: PREFIX:sampleId for embedded namespaces. */
function sampleLui(ns: Namespace, sampleId: string): string {
  return ns.namespaceEmbeddedInLui ? `${embeddedPrefix(ns)}:${sampleId}` : sampleId;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function checkTypes(record: object, types: Record<string, FieldType>, where: string): string[] {
  const problems: string[] = [];
  for (const [key, expected] of Object.entries(types)) {
    const actual = typeOf((record as Record<string, unknown>)[key]);
    const ok = expected === 'string|null' ? actual === 'string' || actual === 'null' : actual === expected;
    if (!ok) problems.push(`${where}.${key}: expected ${expected}, got ${actual}`);
  }
  return problems;
}

function sortedKeys(record: object): string[] {
  return Object.keys(record).sort();
}

function duplicates<T>(values: T[]): T[] {
  const seen = new Set<T>();
  const dups = new Set<T>();
  for (const v of values) {
    if (seen.has(v)) dups.add(v);
    seen.add(v);
  }
  return [...dups];
}

describe('sample registry seed: format', () => {
  it('is a bare JSON array of about twenty namespace objects', () => {
    expect(Array.isArray(raw)).toBe(true);
    expect(namespaces.length).toBeGreaterThanOrEqual(15);
    expect(namespaces.length).toBeLessThanOrEqual(40);
  });

  it('gives every namespace exactly the key set of the reference namespaces', () => {
    for (const ns of namespaces) {
      expect({ prefix: ns.prefix, keys: sortedKeys(ns) }).toEqual({ prefix: ns.prefix, keys: NAMESPACE_KEYS });
    }
  });

  it('gives every resource exactly the key set of the reference resources', () => {
    for (const { resource } of resources) {
      expect({ id: resource.id, keys: sortedKeys(resource) }).toEqual({ id: resource.id, keys: RESOURCE_KEYS });
    }
  });

  it('gives every institution and location exactly the key set of the reference ones', () => {
    for (const { resource } of resources) {
      const { id } = resource;
      expect({ id, keys: sortedKeys(resource.institution) }).toEqual({ id, keys: INSTITUTION_KEYS });
      expect({ id, keys: sortedKeys(resource.location) }).toEqual({ id, keys: LOCATION_KEYS });
      expect({ id, keys: sortedKeys(resource.institution.location) }).toEqual({ id, keys: LOCATION_KEYS });
    }
  });

  it('uses the value types of the reference for every field', () => {
    const problems: string[] = [];
    for (const ns of namespaces) {
      problems.push(...checkTypes(ns, NAMESPACE_TYPES, ns.prefix));
      for (const r of ns.resources) {
        problems.push(...checkTypes(r, RESOURCE_TYPES, `${ns.prefix}/resource ${r.id}`));
        problems.push(...checkTypes(r.institution, INSTITUTION_TYPES, `${ns.prefix}/resource ${r.id}/institution`));
      }
    }
    expect(problems).toEqual([]);
  });

  it('writes dates as parseable ISO timestamps', () => {
    const dates: string[] = [];
    for (const ns of namespaces) {
      dates.push(ns.created, ns.modified);
      if (ns.deprecationDate !== null) dates.push(ns.deprecationDate);
      for (const r of ns.resources) if (r.deprecationDate !== null) dates.push(r.deprecationDate);
    }
    for (const date of dates) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([+-]\d{2}:\d{2}|Z)$/);
      expect(Number.isNaN(Date.parse(date))).toBe(false);
    }
  });
});

describe('sample registry seed: integrity', () => {
  it('has unique namespace ids, unique resource ids and unique prefixes (case-insensitively)', () => {
    expect(duplicates(namespaces.map((ns) => ns.id))).toEqual([]);
    expect(duplicates(resources.map(({ resource }) => resource.id))).toEqual([]);
    expect(duplicates(namespaces.map((ns) => ns.prefix.toLowerCase()))).toEqual([]);
  });

  it('has well-formed MIR ids, unique across namespaces and resources together', () => {
    const mirIds = [...namespaces.map((ns) => ns.mirId), ...resources.map(({ resource }) => resource.mirId)];
    for (const mirId of mirIds) expect(mirId).toMatch(/^MIR:\d{8}$/);
    expect(duplicates(mirIds)).toEqual([]);
  });

  it('gives every namespace at least one resource', () => {
    expect(namespaces.filter((ns) => ns.resources.length === 0).map((ns) => ns.prefix)).toEqual([]);
  });

  it('has patterns that compile as JavaScript regular expressions without the u flag', () => {
    for (const ns of namespaces) expect(() => luiRegExp(ns.pattern)).not.toThrow();
  });

  it("matches every namespace's sampleId against its own pattern (PREFIX:sampleId when embedded)", () => {
    const failures = namespaces
      .filter((ns) => !luiRegExp(ns.pattern).test(sampleLui(ns, ns.sampleId)))
      .map((ns) => `${ns.prefix}: ${ns.sampleId}`);
    expect(failures).toEqual([]);
  });

  it("matches every resource's sampleId against its namespace's pattern", () => {
    const failures = resources
      .filter(({ ns, resource }) => !luiRegExp(ns.pattern).test(sampleLui(ns, resource.sampleId)))
      .map(({ ns, resource }) => `${ns.prefix}/resource ${resource.id}: ${resource.sampleId}`);
    expect(failures).toEqual([]);
  });

  it('puts {$id} in every urlPattern', () => {
    const failures = resources
      .filter(({ resource }) => !resource.urlPattern.includes('{$id}'))
      .map(({ resource }) => `${resource.id}: ${resource.urlPattern}`);
    expect(failures).toEqual([]);
  });

  it('has at most one official resource per namespace', () => {
    for (const ns of namespaces) {
      expect({ prefix: ns.prefix, official: ns.resources.filter((r) => r.official).length <= 1 }).toEqual({
        prefix: ns.prefix,
        official: true,
      });
    }
  });

  it('uses only ISO 3166-1 alpha-2 country codes, with their ISO names', () => {
    const locations = resources.flatMap(({ resource }) => [resource.location, resource.institution.location]);
    for (const location of locations) {
      expect(location.countryCode).toMatch(/^[A-Z]{2}$/);
      expect(isoCountries.has(location.countryCode)).toBe(true);
      expect(location.countryName).toBe(isoCountries.get(location.countryCode));
    }
  });

  it('spells each institution identically wherever its id appears', () => {
    const byId = new Map<number, Institution>();
    for (const { resource } of resources) {
      const seen = byId.get(resource.institution.id);
      if (seen) expect(resource.institution).toEqual(seen);
      else byId.set(resource.institution.id, resource.institution);
    }
  });

  it('has no deprecation fields set on live records, and a deprecation date on deprecated ones', () => {
    const records: { where: string; deprecated: boolean; deprecationDate: string | null }[] = [
      ...namespaces.map((ns) => ({ where: ns.prefix, deprecated: ns.deprecated, deprecationDate: ns.deprecationDate })),
      ...resources.map(({ ns, resource }) => ({
        where: `${ns.prefix}/resource ${resource.id}`,
        deprecated: resource.deprecated,
        deprecationDate: resource.deprecationDate,
      })),
    ];
    for (const r of records) {
      const { where } = r;
      expect({ where, hasDate: r.deprecationDate !== null }).toEqual({ where, hasDate: r.deprecated });
    }
  });
});

describe('sample registry seed: coverage of the cases a demo and the tests rely on', () => {
  const everyday = [
    ...['taxonomy', 'uniprot', 'pubmed', 'doi', 'ncbigene', 'ensembl', 'pdb', 'hgnc', 'kegg.compound'],
    ...['go', 'chebi', 'pmc', 'orcid', 'interpro', 'reactome', 'drugbank'],
  ];
  it.each(everyday)('includes the everyday namespace %s, live', (prefix) => {
    expect(byPrefix(prefix).deprecated).toBe(false);
  });

  it('has a namespace with three or more providers, exactly one of them official, some with a providerCode', () => {
    const candidates = namespaces.filter(
      (ns) =>
        ns.resources.length >= 3 &&
        ns.resources.filter((r) => r.official).length === 1 &&
        ns.resources.some((r) => r.providerCode !== '') &&
        new Set(ns.resources.map((r) => r.providerCode).filter((code) => code !== '')).size >= 2,
    );
    expect(candidates.map((ns) => ns.prefix)).toEqual(expect.arrayContaining(['pdb']));
  });

  it('has both non-empty and empty providerCode values', () => {
    expect(resources.some(({ resource }) => resource.providerCode !== '')).toBe(true);
    expect(resources.some(({ resource }) => resource.providerCode === '')).toBe(true);
  });

  it('has a namespace with no official resource at all', () => {
    expect(namespaces.some((ns) => ns.resources.every((r) => !r.official))).toBe(true);
  });

  it('has GO as an embedded-prefix namespace with its sampleId stored without the prefix', () => {
    const go = byPrefix('go');
    expect(go.namespaceEmbeddedInLui).toBe(true);
    expect(go.pattern).toBe('^GO:\\d{7}$');
    expect(go.sampleId).toMatch(/^\d{7}$/);
    expect(go.resources.some((r) => r.urlPattern.includes('GO:{$id}'))).toBe(true);
  });

  it('has ChEBI as an embedded-prefix namespace with its sampleId stored without the prefix', () => {
    const chebi = byPrefix('chebi');
    expect(chebi.namespaceEmbeddedInLui).toBe(true);
    expect(chebi.pattern).toBe('^CHEBI:\\d+$');
    expect(chebi.sampleId).toMatch(/^\d+$/);
    expect(chebi.resources.some((r) => r.urlPattern.includes('chebiId=CHEBI:{$id}'))).toBe(true);
  });

  it('stores no embedded namespace sampleId with its prefix in front', () => {
    for (const ns of namespaces.filter((n) => n.namespaceEmbeddedInLui)) {
      expect(ns.sampleId.toLowerCase().startsWith(`${ns.prefix.toLowerCase()}:`)).toBe(false);
    }
  });

  it('has a deprecated namespace that renders the deprecation landing page', () => {
    const deprecated = namespaces.filter(
      (ns) => ns.deprecated && ns.deprecationDate !== null && ns.renderDeprecatedLanding,
    );
    expect(deprecated.map((ns) => ns.prefix)).toContain('3dmet');
  });

  it('has a deprecated resource next to a live resource in a live namespace', () => {
    const mixed = namespaces.filter(
      (ns) =>
        !ns.deprecated &&
        ns.resources.some((r) => r.deprecated && r.deprecationDate !== null) &&
        ns.resources.some((r) => !r.deprecated),
    );
    expect(mixed.length).toBeGreaterThanOrEqual(1);
  });

  it('has a namespace whose LUIs contain a slash (doi)', () => {
    const doi = byPrefix('doi');
    expect(doi.sampleId).toContain('/');
    expect(luiRegExp(doi.pattern).test('10.1038/nbt1156')).toBe(true);
  });

  it('has namespaces whose LUIs contain a colon', () => {
    const withColon = namespaces.filter((ns) => ns.sampleId.includes(':')).map((ns) => ns.prefix);
    expect(withColon.length).toBeGreaterThanOrEqual(1);
    for (const prefix of withColon) {
      const ns = byPrefix(prefix);
      expect(luiRegExp(ns.pattern).test(sampleLui(ns, ns.sampleId))).toBe(true);
    }
  });

  it('has a URL pattern with text after {$id}', () => {
    const suffixed = resources.filter(({ resource }) => !resource.urlPattern.endsWith('{$id}'));
    expect(suffixed.length).toBeGreaterThanOrEqual(1);
    expect(byPrefix('lrg').resources.some((r) => r.urlPattern.endsWith('{$id}.xml'))).toBe(true);
  });

  it('has a prefix that starts with a digit', () => {
    expect(namespaces.filter((ns) => /^\d/.test(ns.prefix)).length).toBeGreaterThanOrEqual(1);
  });

  it('has providers in at least two countries', () => {
    const codes = new Set(resources.map(({ resource }) => resource.location.countryCode));
    expect(codes.size).toBeGreaterThanOrEqual(2);
  });

  it('has an institution shared by resources of two different namespaces', () => {
    const prefixesByInstitution = new Map<number, Set<string>>();
    for (const { ns, resource } of resources) {
      const set = prefixesByInstitution.get(resource.institution.id) ?? new Set<string>();
      set.add(ns.prefix);
      prefixesByInstitution.set(resource.institution.id, set);
    }
    expect([...prefixesByInstitution.values()].some((prefixes) => prefixes.size >= 2)).toBe(true);
  });
});

// Where the reference dataset is available (CI exports REGISTRY_DATASET; locally it sits in ../shared/data),
// check that the seed keeps the reference's ids, so that importing the real dataset updates these records
// instead of duplicating them.
function referenceDatasetPath(): string | undefined {
  const fromEnv = process.env.REGISTRY_DATASET;
  if (fromEnv && !/^https?:/.test(fromEnv) && existsSync(fromEnv)) return fromEnv;
  const local = fileURLToPath(new URL('../../../shared/data/identifiers-org-registry.json', import.meta.url));
  return existsSync(local) ? local : undefined;
}

const referencePath = referenceDatasetPath();
// Without either, the block is skipped as registryDataset() says (and fails under CI=true, like the real-data tests).
const referenceFile: Requirement = referencePath ? { met: true, need: `the reference dataset (${referencePath})` } : registryDataset();

describeRequiring([referenceFile], 'sample registry seed: agreement with the reference dataset', () => {
  const reference = referencePath ? (JSON.parse(readFileSync(referencePath, 'utf8')) as Namespace[]) : [];
  const referenceByPrefix = new Map(reference.map((ns) => [ns.prefix, ns]));

  it('uses the same key sets as the reference records', () => {
    const first = reference[0];
    expect(first).toBeDefined();
    if (!first) return;
    expect(sortedKeys(first)).toEqual(NAMESPACE_KEYS);
    const resource = first.resources[0];
    expect(resource).toBeDefined();
    if (!resource) return;
    expect(sortedKeys(resource)).toEqual(RESOURCE_KEYS);
    expect(sortedKeys(resource.institution)).toEqual(INSTITUTION_KEYS);
  });

  it("keeps the reference's namespace ids, MIR ids and patterns", () => {
    for (const ns of namespaces) {
      const ref = referenceByPrefix.get(ns.prefix);
      expect(ref).toBeDefined();
      expect({ prefix: ns.prefix, id: ns.id, mirId: ns.mirId, pattern: ns.pattern }).toEqual({
        prefix: ns.prefix,
        id: ref?.id,
        mirId: ref?.mirId,
        pattern: ref?.pattern,
      });
    }
  });

  it("keeps the reference's resource ids, MIR ids, URL patterns and institution ids", () => {
    for (const ns of namespaces) {
      const refResources = new Map((referenceByPrefix.get(ns.prefix)?.resources ?? []).map((r) => [r.id, r]));
      for (const r of ns.resources) {
        const ref = refResources.get(r.id);
        expect(ref).toBeDefined();
        expect({ id: r.id, mirId: r.mirId, urlPattern: r.urlPattern, institution: r.institution.id }).toEqual({
          id: r.id,
          mirId: ref?.mirId,
          urlPattern: ref?.urlPattern,
          institution: ref?.institution.id,
        });
      }
    }
  });
});
