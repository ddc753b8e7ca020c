/**
 * The in-memory view of the registry that resolution and reverse lookup answer from. It is built from
 * Postgres (resolver/snapshot-loader.ts) and never mutated: a change produces a new snapshot that replaces
 * the old one atomically, so a request always sees one consistent registry.
 *
 * Dates are kept already formatted the way the reference writes them, so no request formats a date.
 */

export interface LocationView {
  countryCode: string;
  countryName: string;
}

export interface InstitutionView {
  id: number;
  name: string;
  homeUrl: string;
  description: string;
  rorId: string | null;
  location: LocationView;
}

export interface ResourceEntry {
  id: number;
  mirId: string;
  urlPattern: string;
  name: string;
  description: string | null;
  official: boolean;
  providerCode: string;
  sampleId: string | null;
  resourceHomeUrl: string;
  institution: InstitutionView;
  location: LocationView;
  deprecated: boolean;
  deprecationDate: string | null;
  renderDeprecatedLanding: boolean;
  protectedUrls: boolean;
  renderProtectedLanding: boolean;
  authHelpUrl: string | null;
  authHelpDescription: string | null;
}

export interface NamespaceEntry {
  id: number;
  prefix: string;
  mirId: string;
  name: string;
  /** The LUI pattern as stored (Java regex syntax, usually written `^...$`). */
  pattern: string;
  sampleId: string;
  namespaceEmbeddedInLui: boolean;
  deprecated: boolean;
  deprecationDate: string | null;
  renderDeprecatedLanding: boolean;
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
