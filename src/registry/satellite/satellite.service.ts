import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/knex.js';
import { readSampleMeasurements } from '../../db/link-check-reads.js';
import { readNamespaceEntries } from '../../db/namespace-entries.js';
import { readSynonymsOf } from '../../db/namespace-synonyms.js';
import { readRegistryVersion } from '../../db/registry-reads.js';
import { snapshotLuiRules } from '../../core/lui-rules.js';
import { wireOfMeasurements, type WireMeasurement } from '../../core/measurement-wire.js';
import { wireOfEntry, type NamespaceOverride, type WireNamespace } from '../../core/satellite-wire.js';
import { applySatelliteUsage, type SatelliteUsageEntry } from '../../statistics/satellite-usage.js';

export interface SatelliteNamespaces {
  registryVersion: number;
  namespaces: WireNamespace[];
  /** Ids asked for that no namespace has (deleted since the change was logged). */
  missing: number[];
}

export interface SatelliteService {
  namespaces(ids: readonly number[]): Promise<SatelliteNamespaces>;
  /** What the dataset file lacks: the synonyms, stored canonical-LUI rules and suffix passthrough of the namespaces having any. */
  overrides(): Promise<NamespaceOverride[]>;
  /** The link-check measurements the resolvers rank providers by, one entry per resource with sample checks in the window. */
  measurements(): Promise<WireMeasurement[]>;
  /** Counts a batch; `counted` is false for a batch id counted before, `ignored` the entries of unknown prefixes. */
  recordUsage(batchId: string, entries: readonly SatelliteUsageEntry[]): Promise<{ counted: boolean; ignored: number }>;
}

// The entries and the version from one view of the registry.
const readOptions: Knex.TransactionConfig = { isolationLevel: 'repeatable read', readOnly: true };

export function createSatelliteService(db: Db, redis: Redis): SatelliteService {
  return {
    namespaces(ids) {
      return db.transaction(async (trx) => {
        const registryVersion = await readRegistryVersion(trx);
        const entries = await readNamespaceEntries(trx, [...ids]);
        const descriptions = new Map<number, string>(
          (await trx('namespaces').select('id', 'description').whereIn('id', [...ids])).map((row: { id: number; description: string }) => [row.id, row.description]),
        );
        const found = new Set(entries.map((e) => e.id));
        const namespaces = entries.map((e) => ({ ...wireOfEntry(e), description: descriptions.get(e.id) ?? null }));
        return { registryVersion, namespaces, missing: ids.filter((id) => !found.has(id)) };
      }, readOptions);
    },
    async overrides() {
      const synonyms = await readSynonymsOf(db, undefined);
      const stored = await db('namespaces')
        .select('id', 'prefix', 'pattern', 'namespaceEmbeddedInLui', 'luiRules', 'suffixPassthrough')
        .whereNotNull('luiRules')
        .orWhere('suffixPassthrough', true);
      const byId = new Map<number, NamespaceOverride>();
      for (const [id, list] of synonyms) byId.set(id, { id, synonyms: list });
      for (const row of stored) {
        const override: NamespaceOverride = { id: row.id, synonyms: byId.get(row.id)?.synonyms ?? [] };
        if (row.luiRules !== null) override.luiRules = snapshotLuiRules(row.luiRules, row);
        if (row.suffixPassthrough) override.suffixPassthrough = true;
        byId.set(row.id, override);
      }
      return [...byId.values()].sort((a, b) => a.id - b.id);
    },
    async measurements() {
      // The resolvers' own reading (SnapshotStore): one aggregate over the window's sample checks.
      return wireOfMeasurements(await readSampleMeasurements(db));
    },
    async recordUsage(batchId, entries) {
      const prefixes = [...new Set(entries.map((e) => e.prefix))];
      const known = new Set<string>(prefixes.length ? await db('namespaces').whereIn('prefix', prefixes).pluck('prefix') : []);
      const kept = entries.filter((e) => known.has(e.prefix));
      const counted = await applySatelliteUsage(redis, batchId, kept);
      return { counted, ignored: entries.length - kept.length };
    },
  };
}
