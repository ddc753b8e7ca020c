/**
 * The in-memory view of the registry that resolution and reverse lookup answer from. It is built from
 * Postgres (resolver/snapshot-loader.ts) and never mutated: a change produces a new snapshot that replaces
 * the old one atomically, so a request always sees one consistent registry.
 *
 * Dates are kept already formatted the way the reference writes them, so no request formats a date.
 */

import { DEFAULT_RECOMMENDATION, rankProvider, type ProviderRanking, type Recommendation } from './recommendation.js';
import type { InstitutionRecord, LocationRecord, NamespaceRecord, ResourceRecord } from './registry-records.js';
import type { SampleMeasurements } from './reliability.js';
import { snapshotLuiRules, type LuiRules } from './lui-rules.js';

export type LocationView = LocationRecord;

export interface InstitutionView extends InstitutionRecord {
  location: LocationView;
}

/**
 * A resource as resolution needs it (resolution answers no deprecation statement or offline date). Its
 * ranking (ProviderRanking: the recommendation it gets among several resolved resources) is the one part
 * that changes in place: rankNamespace writes it when the entry is built and again whenever the link-check
 * measurements are refreshed, so that no request computes it. A request reads it synchronously, so it sees
 * one value.
 */
export interface ResourceEntry extends Omit<ResourceRecord<string>, 'deprecationOfflineDate' | 'deprecationStatement'> {
  institution: InstitutionView;
  location: LocationView;
  recommendation: Recommendation;
  recommendationIfEbiHosted: Recommendation | null;
}

/** The ranking of an entry not ranked yet: buildSnapshot and rankNamespace replace it before any request. */
export const UNRANKED: ProviderRanking = Object.freeze({ recommendation: DEFAULT_RECOMMENDATION, recommendationIfEbiHosted: null });

/** The fields of a namespace that resolution reads. */
export type NamespaceEntryField =
  | 'id' | 'prefix' | 'mirId' | 'name' | 'pattern' | 'sampleId' | 'namespaceEmbeddedInLui' | 'deprecated' | 'deprecationDate'
  | 'renderDeprecatedLanding';

export interface NamespaceEntry extends Pick<NamespaceRecord<string>, NamespaceEntryField> {
  /** In dataset order (ascending resource id). */
  resources: readonly ResourceEntry[];
  /**
   * The namespace's canonical-LUI rules (lui-rules.ts), null when none applies; derived from the pattern by
   * buildSnapshot when left undefined.
   */
  luiRules?: LuiRules | null;
  /** Other names the namespace answers to (sorted; absent or empty: none). See core/prefix-synonyms.ts. */
  synonyms?: readonly string[];
  /**
   * Whether a LUI its pattern refuses may resolve as its longest matching leading part, the rest passed
   * through to the provider URLs (core/lui-suffix.ts); absent or false: off, the default.
   */
  suffixPassthrough?: boolean;
}

export interface RegistrySnapshot {
  /** Monotonic registry version this snapshot reflects (see the registry_changes migration). */
  readonly version: number;
  /** Keyed by the lower-cased prefix; prefixes are unique case-insensitively. */
  readonly namespacesByPrefix: ReadonlyMap<string, NamespaceEntry>;
  /** Namespace MIR id, and every resource MIR id, to the namespace that owns it. */
  readonly namespacesByMirId: ReadonlyMap<string, NamespaceEntry>;
  /**
   * Keyed by the lower-cased synonym, as prefixes are: the registry keeps synonyms and prefixes apart
   * whatever their case, so a name is found in one of the two maps at most. Looked up only after the prefix
   * lookup failed, so a request written with a real prefix pays nothing for synonyms.
   */
  readonly namespacesBySynonym: ReadonlyMap<string, NamespaceEntry>;
}

export function emptySnapshot(): RegistrySnapshot {
  return { version: 0, namespacesByPrefix: new Map(), namespacesByMirId: new Map(), namespacesBySynonym: new Map() };
}

/** Adds the namespace's synonyms to a synonym map (buildSnapshot, and the loader's patch of a snapshot). */
export function addSynonyms(bySynonym: Map<string, NamespaceEntry>, namespace: NamespaceEntry): void {
  if (namespace.synonyms) for (const synonym of namespace.synonyms) bySynonym.set(synonym.toLowerCase(), namespace);
}

/** Removes the synonyms `namespace` still owns in the map (an entry replaced or dropped). */
export function removeSynonyms(bySynonym: Map<string, NamespaceEntry>, namespace: NamespaceEntry): void {
  if (!namespace.synonyms) return;
  for (const synonym of namespace.synonyms) {
    const key = synonym.toLowerCase();
    if (bySynonym.get(key) === namespace) bySynonym.delete(key);
  }
}

const NO_MEASUREMENTS: SampleMeasurements = new Map();

/** Writes the ranking of each resource of a namespace from the measurements (none: reliability 50 for all). */
export function rankNamespace(namespace: NamespaceEntry, measurements: SampleMeasurements = NO_MEASUREMENTS): void {
  for (const resource of namespace.resources) {
    const ranking = rankProvider(resource, namespace.deprecated, measurements.get(resource.id));
    resource.recommendation = ranking.recommendation;
    resource.recommendationIfEbiHosted = ranking.recommendationIfEbiHosted;
  }
}

/** Ranks every resource of the snapshot again, in place (after the measurements changed). */
export function rankSnapshot(snapshot: RegistrySnapshot, measurements: SampleMeasurements): void {
  for (const namespace of snapshot.namespacesByPrefix.values()) rankNamespace(namespace, measurements);
}

/** Builds the lookup maps of a snapshot from its namespaces, and ranks their resources. */
export function buildSnapshot(
  version: number,
  namespaces: Iterable<NamespaceEntry>,
  measurements: SampleMeasurements = NO_MEASUREMENTS,
): RegistrySnapshot {
  const namespacesByPrefix = new Map<string, NamespaceEntry>();
  const namespacesByMirId = new Map<string, NamespaceEntry>();
  const namespacesBySynonym = new Map<string, NamespaceEntry>();
  for (const ns of namespaces) {
    rankNamespace(ns, measurements);
    if (ns.luiRules === undefined) ns.luiRules = snapshotLuiRules(null, ns);
    namespacesByPrefix.set(ns.prefix.toLowerCase(), ns);
    namespacesByMirId.set(ns.mirId, ns);
    for (const r of ns.resources) namespacesByMirId.set(r.mirId, ns);
    addSynonyms(namespacesBySynonym, ns);
  }
  return { version, namespacesByPrefix, namespacesByMirId, namespacesBySynonym };
}
