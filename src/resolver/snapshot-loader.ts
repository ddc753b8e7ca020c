import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import { readNamespaceEntries } from '../db/namespace-entries.js';
import { readRegistryVersion } from '../db/registry-reads.js';
import type { RegistryChangeRow } from '../db/tables.js';
import type { SampleMeasurements } from '../core/reliability.js';
import { addSynonyms, buildSnapshot, rankNamespace, removeSynonyms, type NamespaceEntry, type RegistrySnapshot } from '../core/registry-snapshot.js';

/** A snapshot plus what is needed to bring it up to date from the registry_changes log. */
export interface LoadedRegistry {
  snapshot: RegistrySnapshot;
  namespacesById: ReadonlyMap<number, NamespaceEntry>;
  /** xmin of the database snapshot last read: any change not yet seen has a transaction id >= this. */
  txidWatermark: string;
  /** Versions already applied whose transaction id is >= the watermark (they would be read again). */
  appliedVersions: ReadonlySet<number>;
}

type ChangeRow = Pick<RegistryChangeRow, 'version' | 'entity' | 'entityId' | 'txid'>;

// Bulk reads in one consistent view: the version log and the rows it describes must agree.
const readOptions: Knex.TransactionConfig = { isolationLevel: 'repeatable read', readOnly: true };

async function readWatermark(trx: Knex.Transaction): Promise<string> {
  const { rows } = await trx.raw<{ rows: { xmin: string }[] }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin');
  return rows[0]!.xmin;
}

async function readChangesSince(trx: Knex.Transaction, watermark: string): Promise<ChangeRow[]> {
  const { rows } = await trx.raw<{ rows: ChangeRow[] }>(
    'SELECT version, entity, entity_id AS "entityId", txid::text AS txid FROM registry_changes WHERE txid >= ?::text::xid8 ORDER BY version',
    [watermark],
  );
  return rows;
}

function versionsAtOrAbove(changes: ChangeRow[], watermark: string): Set<number> {
  const floor = BigInt(watermark);
  return new Set(changes.filter((c) => BigInt(c.txid) >= floor).map((c) => c.version));
}

/** Reads the whole registry into a fresh snapshot, its resources ranked from `measurements`. */
export async function loadRegistry(db: Db, measurements?: SampleMeasurements): Promise<LoadedRegistry> {
  return db.transaction(async (trx) => {
    const watermark = await readWatermark(trx);
    const version = await readRegistryVersion(trx);
    const namespaces = await readNamespaceEntries(trx);
    const recent = await readChangesSince(trx, watermark);
    return {
      snapshot: buildSnapshot(version, namespaces, measurements),
      namespacesById: new Map(namespaces.map((n) => [n.id, n])),
      txidWatermark: watermark,
      appliedVersions: versionsAtOrAbove(recent, watermark),
    };
  }, readOptions);
}

/** Above this many affected namespaces a full reload is cheaper than patching. */
const INCREMENTAL_LIMIT = 5000;

/**
 * Applies the changes committed since `current` was read: only the namespaces they touch are read again,
 * and the new snapshot shares every untouched entry with the old one; the entries read are ranked from
 * `measurements`. Returns `current` itself when nothing changed.
 */
export async function refreshRegistry(db: Db, current: LoadedRegistry, measurements?: SampleMeasurements): Promise<LoadedRegistry> {
  const next = await db.transaction(async (trx) => {
    const watermark = await readWatermark(trx);
    const changes = (await readChangesSince(trx, current.txidWatermark)).filter((c) => !current.appliedVersions.has(c.version));
    if (changes.length === 0) {
      if (watermark === current.txidWatermark) return current;
      const recent = await readChangesSince(trx, watermark);
      return { ...current, txidWatermark: watermark, appliedVersions: versionsAtOrAbove(recent, watermark) };
    }
    const affected = new Set<number>();
    const institutionIds: number[] = [];
    let reloadAll = false;
    for (const change of changes) {
      if (change.entity === 'namespace') affected.add(Number(change.entityId));
      else if (change.entity === 'institution') institutionIds.push(Number(change.entityId));
      // A renamed country touches nearly everything; it is rare enough to reload it all.
      else reloadAll = true;
    }
    if (institutionIds.length && !reloadAll) {
      const rows = await trx('resources').distinct('namespaceId').whereIn('institutionId', institutionIds);
      for (const row of rows) affected.add(row.namespaceId);
    }
    if (affected.size > INCREMENTAL_LIMIT) reloadAll = true;
    const recent = await readChangesSince(trx, watermark);
    const bookkeeping = { txidWatermark: watermark, appliedVersions: versionsAtOrAbove(recent, watermark) };
    const version = await readRegistryVersion(trx);
    if (reloadAll) {
      const namespaces = await readNamespaceEntries(trx);
      return {
        snapshot: buildSnapshot(version, namespaces, measurements),
        namespacesById: new Map(namespaces.map((n) => [n.id, n])),
        ...bookkeeping,
      };
    }
    const fresh = affected.size ? await readNamespaceEntries(trx, [...affected]) : [];
    for (const ns of fresh) rankNamespace(ns, measurements);
    const byId = new Map(current.namespacesById);
    for (const id of affected) byId.delete(id);
    for (const ns of fresh) byId.set(ns.id, ns);
    return { snapshot: patchSnapshot(current, version, affected, fresh), namespacesById: byId, ...bookkeeping };
  }, readOptions);
  return next;
}

/**
 * Copies the lookup maps of the old snapshot, replacing only the affected namespaces (those of `affected`
 * missing from `fresh` are dropped). Also the satellite's way of applying the upstream's changes.
 */
export function patchSnapshot(current: Pick<LoadedRegistry, 'snapshot' | 'namespacesById'>, version: number, affected: Set<number>, fresh: NamespaceEntry[]): RegistrySnapshot {
  const byPrefix = new Map(current.snapshot.namespacesByPrefix);
  const byMirId = new Map(current.snapshot.namespacesByMirId);
  const bySynonym = new Map(current.snapshot.namespacesBySynonym);
  for (const id of affected) {
    const old = current.namespacesById.get(id);
    if (!old) continue;
    if (byPrefix.get(old.prefix.toLowerCase()) === old) byPrefix.delete(old.prefix.toLowerCase());
    if (byMirId.get(old.mirId) === old) byMirId.delete(old.mirId);
    for (const r of old.resources) if (byMirId.get(r.mirId) === old) byMirId.delete(r.mirId);
    removeSynonyms(bySynonym, old);
  }
  for (const ns of fresh) {
    byPrefix.set(ns.prefix.toLowerCase(), ns);
    byMirId.set(ns.mirId, ns);
    for (const r of ns.resources) byMirId.set(r.mirId, ns);
    addSynonyms(bySynonym, ns);
  }
  return { version, namespacesByPrefix: byPrefix, namespacesByMirId: byMirId, namespacesBySynonym: bySynonym };
}
