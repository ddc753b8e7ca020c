/**
 * The in-memory view of the registry that resolution and reverse lookup answer from. It is built from
 * Postgres (resolver/snapshot-loader.ts) and never mutated: a change produces a new snapshot that replaces
 * the old one atomically, so a request always sees one consistent registry.
 *
 * Dates are kept already formatted the way the reference writes them, so no request formats a date.
 */

import type { InstitutionRecord, LocationRecord, NamespaceRecord, ResourceRecord } from './registry-records.js';

export type LocationView = LocationRecord;

export interface InstitutionView extends InstitutionRecord {
  location: LocationView;
}

/** A resource as resolution needs it (resolution answers no deprecation statement or offline date). */
export interface ResourceEntry extends Omit<ResourceRecord<string>, 'deprecationOfflineDate' | 'deprecationStatement'> {
  institution: InstitutionView;
  location: LocationView;
}

/** The fields of a namespace that resolution reads. */
export type NamespaceEntryField =
  | 'id' | 'prefix' | 'mirId' | 'name' | 'pattern' | 'sampleId' | 'namespaceEmbeddedInLui' | 'deprecated' | 'deprecationDate'
  | 'renderDeprecatedLanding';

export interface NamespaceEntry extends Pick<NamespaceRecord<string>, NamespaceEntryField> {
  /** In dataset order (ascending resource id). */
  resources: readonly ResourceEntry[];
}

export interface RegistrySnapshot {
  /** Monotonic registry version this snapshot reflects (see the registry_changes migration). */
  readonly version: number;
  /** Keyed by the lower-cased prefix; prefixes are unique case-insensitively. */
  readonly namespacesByPrefix: ReadonlyMap<string, NamespaceEntry>;
  /** Namespace MIR id, and every resource MIR id, to the namespace that owns it. */
  readonly namespacesByMirId: ReadonlyMap<string, NamespaceEntry>;
}

export function emptySnapshot(): RegistrySnapshot {
  return { version: 0, namespacesByPrefix: new Map(), namespacesByMirId: new Map() };
}

/** Builds the lookup maps of a snapshot from its namespaces. */
export function buildSnapshot(version: number, namespaces: Iterable<NamespaceEntry>): RegistrySnapshot {
  const namespacesByPrefix = new Map<string, NamespaceEntry>();
  const namespacesByMirId = new Map<string, NamespaceEntry>();
  for (const ns of namespaces) {
    namespacesByPrefix.set(ns.prefix.toLowerCase(), ns);
    namespacesByMirId.set(ns.mirId, ns);
    for (const r of ns.resources) namespacesByMirId.set(r.mirId, ns);
  }
  return { version, namespacesByPrefix, namespacesByMirId };
}
