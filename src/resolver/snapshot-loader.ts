import type { Knex } from 'knex';
import type { Db } from '../db/knex.js';
import { readRegistryVersion, selectResourcesWithInstitution, type ResourceWithInstitutionRow } from '../db/registry-reads.js';
import type { NamespaceRow, RegistryChangeRow } from '../db/tables.js';
import { formatReferenceDate } from '../lib/dates.js';
import type { SampleMeasurements } from '../core/reliability.js';
import {
  buildSnapshot,
  rankNamespace,
  UNRANKED,
  type InstitutionView,
  type LocationView,
  type NamespaceEntry,
  type NamespaceEntryField,
  type RegistrySnapshot,
  type ResourceEntry,
} from '../core/registry-snapshot.js';

/** A snapshot plus what is needed to bring it up to date from the registry_changes log. */
export interface LoadedRegistry {
  snapshot: RegistrySnapshot;
  namespacesById: ReadonlyMap<number, NamespaceEntry>;
  /** xmin of the database snapshot last read: any change not yet seen has a transaction id >= this. */
  txidWatermark: string;
  /** Versions already applied whose transaction id is >= the watermark (they would be read again). */
  appliedVersions: ReadonlySet<number>;
}

/** The columns of a namespace the snapshot holds. */
type NamespaceColumns = Pick<NamespaceRow, NamespaceEntryField>;

type ChangeRow = Pick<RegistryChangeRow, 'version' | 'entity' | 'entityId' | 'txid'>;

// Bulk reads in one consistent view: the version log and the rows it describes must agree.
const readOptions: Knex.TransactionConfig = { isolationLevel: 'repeatable read', readOnly: true };

/** Rows per query when the whole registry is read. */
const CHUNK_ROWS = 5000;

/**
 * Reads rows in chunks of CHUNK_ROWS (`readAfter`: those after an id, in id order), handing each chunk over
 * before the next is read. A whole-registry load at 100,000 namespaces would otherwise hold every row
 * object at once, about 300 MB that outlives the load in the old generation (V8 may not collect it for
 * minutes, and meanwhile every young-generation collection pays for the extra pages); row objects of one
 * chunk die young.
 */
async function forEachChunk<T extends { id: number }>(readAfter: (id: number) => PromiseLike<T[]>, each: (rows: T[]) => void): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await readAfter(after);
    if (rows.length === 0) return;
    each(rows);
    if (rows.length < CHUNK_ROWS) return;
    after = rows[rows.length - 1]!.id;
  }
}

async function readNamespaces(trx: Knex.Transaction, ids?: number[]): Promise<NamespaceEntry[]> {
  const nsQuery = () =>
    trx('namespaces').select(
      'id', 'prefix', 'mirId', 'name', 'pattern', 'sampleId', 'namespaceEmbeddedInLui', 'deprecated',
      'deprecationDate', 'renderDeprecatedLanding',
    );
  const resQuery = () => selectResourcesWithInstitution(trx);

  // Shared objects: one location and one institution object however many resources point at them.
  const locations = new Map<string, LocationView>();
  const locationOf = (countryCode: string, countryName: string): LocationView => {
    let location = locations.get(countryCode);
    if (!location) locations.set(countryCode, (location = { countryCode, countryName }));
    return location;
  };
  const institutions = new Map<number, InstitutionView>();
  const resourcesByNamespace = new Map<number, ResourceEntry[]>();
  const addResources = (rows: ResourceWithInstitutionRow[]) => {
    for (const row of rows) {
      let institution = institutions.get(row.institutionId);
      if (!institution) {
        institution = {
          id: row.institutionId,
          name: row.institutionName,
          homeUrl: row.institutionHomeUrl,
          description: row.institutionDescription,
          rorId: row.institutionRorId,
          location: locationOf(row.institutionCountryCode, row.institutionCountryName),
        };
        institutions.set(row.institutionId, institution);
      }
      const entry: ResourceEntry = {
        id: row.id,
        mirId: row.mirId,
        urlPattern: row.urlPattern,
        name: row.name,
        description: row.description,
        official: row.official,
        providerCode: row.providerCode,
        sampleId: row.sampleId,
        resourceHomeUrl: row.resourceHomeUrl,
        institution,
        location: locationOf(row.locationCountryCode, row.locationCountryName),
        deprecated: row.deprecated,
        deprecationDate: formatReferenceDate(row.deprecationDate),
        renderDeprecatedLanding: row.renderDeprecatedLanding,
        protectedUrls: row.protectedUrls,
        renderProtectedLanding: row.renderProtectedLanding,
        authHelpUrl: row.authHelpUrl,
        authHelpDescription: row.authHelpDescription,
        // Ranked with its namespace (buildSnapshot, rankNamespace), which knows whether that is deprecated.
        recommendation: UNRANKED.recommendation,
        recommendationIfEbiHosted: UNRANKED.recommendationIfEbiHosted,
      };
      let list = resourcesByNamespace.get(row.namespaceId);
      if (!list) resourcesByNamespace.set(row.namespaceId, (list = []));
      list.push(entry);
    }
  };
  const namespaces: NamespaceEntry[] = [];
  const addNamespaces = (rows: NamespaceColumns[]) => {
    for (const row of rows) namespaces.push(namespaceEntry(row, resourcesByNamespace.get(row.id) ?? []));
  };
  // Dataset order: resources by id within their namespace.
  if (ids) {
    addResources(await resQuery().whereIn('r.namespaceId', ids).orderBy('r.id'));
    addNamespaces(await nsQuery().whereIn('id', ids));
  } else {
    await forEachChunk((after) => resQuery().where('r.id', '>', after).orderBy('r.id').limit(CHUNK_ROWS), addResources);
    await forEachChunk((after) => nsQuery().where('id', '>', after).orderBy('id').limit(CHUNK_ROWS), addNamespaces);
  }
  return namespaces;
}

function namespaceEntry(row: NamespaceColumns, resources: ResourceEntry[]): NamespaceEntry {
  return {
    id: row.id,
    prefix: row.prefix,
    mirId: row.mirId,
    name: row.name,
    pattern: row.pattern,
    sampleId: row.sampleId,
    namespaceEmbeddedInLui: row.namespaceEmbeddedInLui,
    deprecated: row.deprecated,
    deprecationDate: formatReferenceDate(row.deprecationDate),
    renderDeprecatedLanding: row.renderDeprecatedLanding,
    resources,
  };
}

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
    const namespaces = await readNamespaces(trx);
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
      const namespaces = await readNamespaces(trx);
      return {
        snapshot: buildSnapshot(version, namespaces, measurements),
        namespacesById: new Map(namespaces.map((n) => [n.id, n])),
        ...bookkeeping,
      };
    }
    const fresh = affected.size ? await readNamespaces(trx, [...affected]) : [];
    for (const ns of fresh) rankNamespace(ns, measurements);
    const byId = new Map(current.namespacesById);
    for (const id of affected) byId.delete(id);
    for (const ns of fresh) byId.set(ns.id, ns);
    return { snapshot: patchSnapshot(current, version, affected, fresh), namespacesById: byId, ...bookkeeping };
  }, readOptions);
  return next;
}

/** Copies the lookup maps of the old snapshot, replacing only the affected namespaces. */
function patchSnapshot(current: LoadedRegistry, version: number, affected: Set<number>, fresh: NamespaceEntry[]): RegistrySnapshot {
  const byPrefix = new Map(current.snapshot.namespacesByPrefix);
  const byMirId = new Map(current.snapshot.namespacesByMirId);
  for (const id of affected) {
    const old = current.namespacesById.get(id);
    if (!old) continue;
    if (byPrefix.get(old.prefix.toLowerCase()) === old) byPrefix.delete(old.prefix.toLowerCase());
    if (byMirId.get(old.mirId) === old) byMirId.delete(old.mirId);
    for (const r of old.resources) if (byMirId.get(r.mirId) === old) byMirId.delete(r.mirId);
  }
  for (const ns of fresh) {
    byPrefix.set(ns.prefix.toLowerCase(), ns);
    byMirId.set(ns.mirId, ns);
    for (const r of ns.resources) byMirId.set(r.mirId, ns);
  }
  return { version, namespacesByPrefix: byPrefix, namespacesByMirId: byMirId };
}
