/**
 * The resolver's snapshot (core/registry-snapshot.ts) read back from a built dataset file instead of the
 * database: what a process that answers from the dataset build alone (the SPARQL endpoint's worker threads)
 * resolves and reverse-looks-up with. The dataset carries no prefix synonyms, so they are given apart.
 */
import { buildSnapshot, UNRANKED, type InstitutionView, type LocationView, type NamespaceEntry, type RegistrySnapshot } from '../core/registry-snapshot.js';
import type { DatasetNamespace } from '../importer/dataset.schema.js';

/** A dataset file's namespaces: the envelope the build writes, or a bare list. */
function namespacesOf(json: unknown): DatasetNamespace[] {
  const list = Array.isArray(json) ? json : (json as { payload?: { namespaces?: unknown } } | null)?.payload?.namespaces;
  if (!Array.isArray(list)) throw new Error('The dataset file holds no namespace list');
  return list as DatasetNamespace[];
}

/**
 * The snapshot of a dataset file's bytes (the build's plain variant), each namespace given the synonyms
 * `synonymsByPrefix` lists for its lower-cased prefix.
 */
export function snapshotFromDataset(bytes: Uint8Array, synonymsByPrefix: ReadonlyMap<string, readonly string[]> = new Map()): RegistrySnapshot {
  const namespaces = namespacesOf(JSON.parse(new TextDecoder().decode(bytes)));
  const locations = new Map<string, LocationView>();
  const locationOf = (location: LocationView): LocationView => {
    let shared = locations.get(location.countryCode);
    if (!shared) locations.set(location.countryCode, (shared = { countryCode: location.countryCode, countryName: location.countryName }));
    return shared;
  };
  const entries: NamespaceEntry[] = namespaces.map((ns, nsIndex) => {
    const entry: NamespaceEntry = {
      // Ids are written by the build; a hand-made file without them still gets distinct ones.
      id: ns.id ?? nsIndex + 1,
      prefix: ns.prefix,
      mirId: ns.mirId,
      name: ns.name,
      pattern: ns.pattern,
      sampleId: ns.sampleId,
      namespaceEmbeddedInLui: ns.namespaceEmbeddedInLui,
      deprecated: ns.deprecated,
      deprecationDate: ns.deprecationDate,
      renderDeprecatedLanding: ns.renderDeprecatedLanding,
      resources: ns.resources.map((r, rIndex) => {
        const institution: InstitutionView = {
          id: r.institution.id ?? 0,
          name: r.institution.name,
          homeUrl: r.institution.homeUrl,
          description: r.institution.description,
          rorId: r.institution.rorId,
          location: locationOf(r.institution.location),
        };
        return {
          id: r.id ?? (nsIndex + 1) * 1000 + rIndex,
          mirId: r.mirId,
          urlPattern: r.urlPattern,
          name: r.name,
          description: r.description,
          official: r.official,
          providerCode: r.providerCode,
          sampleId: r.sampleId,
          resourceHomeUrl: r.resourceHomeUrl,
          institution,
          location: locationOf(r.location),
          deprecated: r.deprecated,
          deprecationDate: r.deprecationDate,
          renderDeprecatedLanding: r.renderDeprecatedLanding,
          protectedUrls: r.protectedUrls,
          renderProtectedLanding: r.renderProtectedLanding,
          authHelpUrl: r.authHelpUrl,
          authHelpDescription: r.authHelpDescription,
          recommendation: UNRANKED.recommendation,
          recommendationIfEbiHosted: UNRANKED.recommendationIfEbiHosted,
        };
      }),
    };
    const synonyms = synonymsByPrefix.get(ns.prefix.toLowerCase());
    if (synonyms && synonyms.length > 0) entry.synonyms = [...synonyms].sort();
    return entry;
  });
  return buildSnapshot(0, entries);
}
