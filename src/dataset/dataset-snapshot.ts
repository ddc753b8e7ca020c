/**
 * The resolver's snapshot entries (core/registry-snapshot.ts) read back from a built dataset file instead of
 * the database: what a process that answers from the dataset alone resolves and reverse-looks-up with (a
 * satellite resolver, the SPARQL endpoint's worker threads). The dataset carries no prefix synonyms, stored
 * canonical-LUI rules or suffix passthrough: those come apart, as overrides.
 */
import { snapshotLuiRules } from '../core/lui-rules.js';
import { buildSnapshot, UNRANKED, type InstitutionView, type LocationView, type NamespaceEntry, type RegistrySnapshot, type ResourceEntry } from '../core/registry-snapshot.js';
import type { NamespaceOverride, WireNamespace, WireResource } from '../core/satellite-wire.js';

const NO_SYNONYMS: readonly string[] = Object.freeze([]);

type DatasetLocation = { countryCode: string; countryName: string };
type DatasetResource = Omit<WireResource, 'institution' | 'location'> & {
  deprecationOfflineDate?: string | null;
  deprecationStatement?: string | null;
  institution: { id: number; name: string; homeUrl: string; description: string; rorId: string | null; location: DatasetLocation };
  location: DatasetLocation;
};
type DatasetNamespace = Omit<WireNamespace, 'resources' | 'luiRules' | 'synonyms' | 'suffixPassthrough'> & { resources: DatasetResource[] };

function isDatasetNamespace(value: unknown): value is DatasetNamespace {
  const ns = value as Partial<DatasetNamespace> | null;
  return (
    typeof ns === 'object' && ns !== null && typeof ns.id === 'number' && typeof ns.prefix === 'string' && typeof ns.mirId === 'string' &&
    typeof ns.pattern === 'string' && Array.isArray(ns.resources)
  );
}

/**
 * The snapshot entries of the dataset's namespaces (the reference's shape, as the registry area writes it),
 * institutions and locations shared between entries as the resolver's loader shares them; the synonyms and
 * stored canonical-LUI rules the dataset lacks come from `overrides`. Throws on a namespace it cannot read.
 */
export function entriesOfDataset(namespaces: readonly unknown[], overrides: readonly NamespaceOverride[]): NamespaceEntry[] {
  const locations = new Map<string, LocationView>();
  const locationOf = ({ countryCode, countryName }: DatasetLocation): LocationView => {
    let location = locations.get(countryCode);
    if (!location) locations.set(countryCode, (location = { countryCode, countryName }));
    return location;
  };
  const institutions = new Map<number, InstitutionView>();
  const overrideOf = new Map(overrides.map((o) => [o.id, o]));
  return namespaces.map((value, index) => {
    if (!isDatasetNamespace(value)) throw new Error(`the dataset's namespace ${index} is not one`);
    const resources = value.resources.map((r): ResourceEntry => {
      let institution = institutions.get(r.institution.id);
      if (!institution) {
        const { location, ...fields } = r.institution;
        institutions.set(r.institution.id, (institution = { ...fields, location: locationOf(location) }));
      }
      // The dataset's resource fields are the snapshot's, but for the two resolution never answers.
      const { institution: _institution, location, deprecationOfflineDate: _offline, deprecationStatement: _statement, ...fields } = r;
      return { ...fields, institution, location: locationOf(location), recommendation: UNRANKED.recommendation, recommendationIfEbiHosted: UNRANKED.recommendationIfEbiHosted };
    });
    const override = overrideOf.get(value.id);
    const entry: NamespaceEntry = {
      id: value.id,
      prefix: value.prefix,
      mirId: value.mirId,
      name: value.name,
      pattern: value.pattern,
      sampleId: value.sampleId,
      namespaceEmbeddedInLui: value.namespaceEmbeddedInLui,
      deprecated: value.deprecated,
      deprecationDate: value.deprecationDate,
      renderDeprecatedLanding: value.renderDeprecatedLanding,
      resources,
      // As the resolver's loader: the stored rules where a curator set them, else those the pattern calls for.
      luiRules: override?.luiRules !== undefined ? override.luiRules : snapshotLuiRules(null, value),
      synonyms: override?.synonyms.length ? override.synonyms : NO_SYNONYMS,
      suffixPassthrough: override?.suffixPassthrough ?? false,
    };
    return entry;
  });
}

/** A dataset file's namespaces: the envelope the build writes, or a bare list. */
function namespacesOf(json: unknown): unknown[] {
  const list = Array.isArray(json) ? json : (json as { payload?: { namespaces?: unknown } } | null)?.payload?.namespaces;
  if (!Array.isArray(list)) throw new Error('The dataset file holds no namespace list');
  return list;
}

/**
 * The snapshot of a dataset file's bytes (the build's plain variant), each namespace given the synonyms
 * `synonymsByPrefix` lists for its lower-cased prefix.
 */
export function snapshotFromDataset(bytes: Uint8Array, synonymsByPrefix: ReadonlyMap<string, readonly string[]> = new Map()): RegistrySnapshot {
  const namespaces = namespacesOf(JSON.parse(new TextDecoder().decode(bytes)));
  const overrides: NamespaceOverride[] = [];
  for (const ns of namespaces) {
    const { id, prefix } = (ns ?? {}) as { id?: unknown; prefix?: unknown };
    const synonyms = typeof prefix === 'string' ? synonymsByPrefix.get(prefix.toLowerCase()) : undefined;
    if (typeof id === 'number' && synonyms && synonyms.length > 0) overrides.push({ id, synonyms: [...synonyms].sort() });
  }
  return buildSnapshot(0, entriesOfDataset(namespaces, overrides));
}
