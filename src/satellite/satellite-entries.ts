/**
 * The registry as a satellite holds it: snapshot entries (core/registry-snapshot.ts) made from the dataset
 * file's namespaces, or from the upstream's /satelliteApi/namespaces (the same entries the resolver reads from
 * Postgres, without their ranking), and written to disk in that second form.
 */
import { snapshotLuiRules } from '../core/lui-rules.js';
import { UNRANKED, type InstitutionView, type LocationView, type NamespaceEntry, type ResourceEntry } from '../core/registry-snapshot.js';
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
