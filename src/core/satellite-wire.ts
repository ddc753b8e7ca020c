/**
 * The registry's namespaces as the upstream registry area sends them to a satellite resolver
 * (/satelliteApi) and as the satellite keeps them on disk: the resolver's snapshot entries
 * (registry-snapshot.ts) without their ranking, which each side computes itself.
 */
import type { LuiRules } from './lui-rules.js';
import { UNRANKED, type NamespaceEntry, type ResourceEntry } from './registry-snapshot.js';

/** A resource of the wire forms: a snapshot resource without its ranking. */
export type WireResource = Omit<ResourceEntry, 'recommendation' | 'recommendationIfEbiHosted'>;

/**
 * A namespace of /satelliteApi/namespaces (with its description, which the snapshot leaves out and the
 * MCP tools read one namespace at a time) and of the snapshot file (without it).
 */
export type WireNamespace = Omit<NamespaceEntry, 'resources'> & { resources: WireResource[]; description?: string | null };

/**
 * What the dataset file lacks of a namespace: its synonyms, its canonical-LUI rules where a curator stored
 * some, and its suffix passthrough where a curator turned it on.
 */
export interface NamespaceOverride {
  id: number;
  synonyms: readonly string[];
  /** The rules the snapshot applies (null: none); present only where rules are stored. */
  luiRules?: LuiRules | null;
  /** Present (true) only where it is on. */
  suffixPassthrough?: boolean;
}

const NO_SYNONYMS: readonly string[] = Object.freeze([]);

/** A snapshot entry of a wire namespace, its resources unranked (buildSnapshot and rankNamespace rank them). */
export function entryOfWire({ description: _description, ...namespace }: WireNamespace): NamespaceEntry {
  return {
    ...namespace,
    synonyms: namespace.synonyms?.length ? namespace.synonyms : NO_SYNONYMS,
    luiRules: namespace.luiRules ?? null,
    resources: namespace.resources.map((r) => ({ ...r, recommendation: UNRANKED.recommendation, recommendationIfEbiHosted: UNRANKED.recommendationIfEbiHosted })),
  };
}

/** The wire form of an entry, for the snapshot file. */
export function wireOfEntry(entry: NamespaceEntry): WireNamespace {
  return { ...entry, resources: entry.resources.map(({ recommendation: _r, recommendationIfEbiHosted: _e, ...resource }) => resource) };
}

