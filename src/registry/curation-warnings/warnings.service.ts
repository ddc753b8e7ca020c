/**
 * The curation warnings (registry-behaviour.md §5.3 "Curation warnings"): those a registry validator
 * reports through POST /curationApi/notifications, stored with their history, plus those this registry
 * computes on request (computed-warnings.ts); an item's list, one warning and its events, and the summary
 * the curators' dashboard starts from.
 */
import type { Knex } from 'knex';
import { invalid } from '../../core/domain-error.js';
import type { Db } from '../../db/knex.js';
import type { CurationWarningEventType, CurationWarningRow, NamespaceRow } from '../../db/tables.js';
import type { Curator } from '../model/curator-auth.js';
import { COLLECTIONS } from '../model/collections.js';
import { itemNotFound } from '../model/items.service.js';
import { patternWarnings } from './computed-warnings.js';
import { SUMMARY_USAGE_DAYS, type CurationWarning, type CurationWarningEvent, type SummaryEntry, type WarningsSummary, type WarningTargetType } from '../model/curation-warnings.js';
import type { WarningNotification } from './warnings.schemas.js';

export type CurationWarningOwner = 'namespaces' | 'resources' | 'institutions';

const TARGET_COLUMN = { namespace: 'namespaceId', resource: 'resourceId', institution: 'institutionId' } as const;
const TARGET_TABLE = { namespace: 'namespaces', resource: 'resources', institution: 'institutions' } as const;
const OWNER_TARGET: Record<CurationWarningOwner, WarningTargetType> = { namespaces: 'namespace', resources: 'resource', institutions: 'institution' };

export type WarningWithLatest = CurationWarningRow & { latestType: CurationWarningEventType | null; latestCreated: Date | null };

/** Warnings with their newest event's type and time. */
export function selectWarnings(db: Knex): Knex.QueryBuilder {
  return db('curation_warnings as w')
    .select('w.*', 'latest.type as latestType', 'latest.created as latestCreated')
    .joinRaw(
      'LEFT JOIN LATERAL (SELECT e.type, e.created FROM curation_warning_events e WHERE e.warning_id = w.id ORDER BY e.id DESC LIMIT 1) latest ON true',
    );
}

function targetPath(row: CurationWarningRow): string {
  if (row.namespaceId !== null) return `/namespaces/${row.namespaceId}`;
  if (row.resourceId !== null) return `/resources/${row.resourceId}`;
  return `/institutions/${row.institutionId}`;
}

export function toWarning(row: WarningWithLatest): CurationWarning {
  const moreDetails: Record<string, string> = {};
  for (const { label, value } of row.details) moreDetails[label] = value;
  return {
    id: row.id,
    globalId: row.globalId,
    type: row.type,
    open: row.open,
    created: row.created,
    modified: row.modified,
    lastNotification: row.lastNotification,
    latestEvent: { type: row.latestType ?? 'CREATED', created: row.latestCreated ?? row.created },
    moreDetails,
    targetPath: targetPath(row),
  };
}

/**
 * An item's curation warnings (a to-many association: a list, 404 only when the item is unknown): the
 * stored ones, open or not, oldest first, then for a namespace the one computed from its pattern when the
 * pattern can backtrack catastrophically.
 */
export async function listItemWarnings(db: Db, owner: CurationWarningOwner, rawId: string): Promise<CurationWarning[]> {
  const collection = COLLECTIONS[owner];
  const id = collection.key.parse(rawId);
  const item = id === null ? undefined : await db(owner).first('*').where('id', id);
  if (!item) throw itemNotFound(collection, 'id', rawId);
  const target = OWNER_TARGET[owner];
  const stored = ((await selectWarnings(db).where(`w.${TARGET_COLUMN[target]}`, id).orderBy('w.id')) as WarningWithLatest[]).map(toWarning);
  if (owner !== 'namespaces') return stored;
  return [...stored, ...(await patternWarnings(db, item as NamespaceRow))];
}

export async function findWarning(db: Db, rawId: string): Promise<CurationWarning | undefined> {
  if (!/^\d{1,15}$/.test(rawId)) return undefined;
  const row = (await selectWarnings(db).where('w.id', Number(rawId)).first()) as WarningWithLatest | undefined;
  return row && toWarning(row);
}

/** A stored warning's events, oldest first; undefined when there is no such warning. */
export async function listWarningEvents(db: Db, rawId: string): Promise<CurationWarningEvent[] | undefined> {
  if (!/^\d{1,15}$/.test(rawId)) return undefined;
  const id = Number(rawId);
  if (!(await db('curation_warnings').first('id').where({ id }))) return undefined;
  return db('curation_warning_events').select('*').where({ warningId: id }).orderBy('id');
}

// Serialises two syncs (each is a full snapshot); any constant no other advisory lock of the database uses.
const SYNC_LOCK_KEY = 7_302_851_468;

function detailRows(details: Record<string, string>): string {
  return JSON.stringify(Object.entries(details).map(([label, value]) => ({ label, value })));
}

/** The ids of `ids` that name a row of `table`. */
async function existingIds(trx: Knex, table: string, ids: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += 10_000) {
    const rows = (await trx(table).select('id').whereIn('id', unique.slice(i, i + 10_000))) as { id: number }[];
    for (const row of rows) found.add(row.id);
  }
  return found;
}

export interface SyncResult {
  created: number;
  updated: number;
  reopened: number;
  solved: number;
  skipped: number;
}

/**
 * POST /curationApi/notifications: the validator's full snapshot of what is wrong. In one transaction, as
 * the reference does: each notification updates the warning of its global id (the details replaced, a
 * REOPENED event if it had been solved; one whose stored type differs is skipped) or creates it (CREATED;
 * skipped when its target does not exist); then every open warning the snapshot no longer names is SOLVED.
 * Warnings a curator disabled stay disabled. An unknown targetType refuses the whole snapshot (invalid).
 */
export async function syncWarnings(db: Db, curator: Curator, notifications: readonly WarningNotification[]): Promise<SyncResult> {
  const result: SyncResult = { created: 0, updated: 0, reopened: 0, solved: 0, skipped: 0 };
  for (const n of notifications) {
    if (!Object.hasOwn(TARGET_COLUMN, n.targetType)) {
      throw invalid(`Unknown targetType '${n.targetType.slice(0, 100)}': one of institution, namespace, resource`);
    }
  }
  await db.transaction(async (trx) => {
    await trx.raw('SELECT pg_advisory_xact_lock(?)', [SYNC_LOCK_KEY]);
    const known = new Map<string, WarningWithLatest>();
    for (const row of (await selectWarnings(trx)) as WarningWithLatest[]) known.set(row.globalId, row);
    const targets = new Map<WarningTargetType, Set<number>>();
    for (const type of Object.keys(TARGET_TABLE) as WarningTargetType[]) {
      const ids = notifications.filter((n) => n.targetType === type && !known.has(n.globalId)).map((n) => n.targetId);
      targets.set(type, await existingIds(trx, TARGET_TABLE[type], ids));
    }
    const seen = new Set<string>();
    const addEvent = (warningId: number, type: CurationWarningEventType) => trx('curation_warning_events').insert({ warningId, type, actor: curator.name });
    for (const n of notifications) {
      seen.add(n.globalId);
      const existing = known.get(n.globalId);
      if (!existing) {
        if (!targets.get(n.targetType)!.has(n.targetId)) {
          result.skipped++;
          continue;
        }
        const [created] = await trx('curation_warnings')
          .insert({ globalId: n.globalId, type: n.type, [TARGET_COLUMN[n.targetType]]: n.targetId, details: detailRows(n.details), lastNotification: trx.fn.now() })
          .returning('*');
        await addEvent(created!.id, 'CREATED');
        known.set(n.globalId, { ...created!, latestType: 'CREATED', latestCreated: created!.created });
        result.created++;
        continue;
      }
      if (existing.type !== n.type) {
        result.skipped++;
        continue;
      }
      const reopen = existing.latestType === 'SOLVED';
      await trx('curation_warnings')
        .update({ details: detailRows(n.details), lastNotification: trx.fn.now(), modified: trx.fn.now(), ...(reopen ? { open: true } : {}) })
        .where({ id: existing.id });
      if (existing.latestType === null) await addEvent(existing.id, 'CREATED');
      if (reopen) {
        await addEvent(existing.id, 'REOPENED');
        existing.latestType = 'REOPENED';
        existing.open = true;
        result.reopened++;
      }
      result.updated++;
    }
    for (const warning of known.values()) {
      if (!warning.open || seen.has(warning.globalId)) continue;
      await trx('curation_warnings').update({ open: false, modified: trx.fn.now() }).where({ id: warning.id });
      await addEvent(warning.id, 'SOLVED');
      result.solved++;
    }
  });
  return result;
}


interface OpenWarningRow {
  type: string;
  latestType: CurationWarningEventType | null;
  institutionId: number | null;
  institutionName: string | null;
  prefix: string | null;
  namespaceName: string | null;
}

/**
 * GET /curationApi/warningsSummary: every open warning grouped by what it is about (a resource's under its
 * namespace), counted as the reference counts them, in the order of the labels; and the recent visits of
 * every namespace, for the dashboard to sort by.
 */
export async function summarizeWarnings(db: Db): Promise<WarningsSummary> {
  const rows = (await db('curation_warnings as w')
    .select(
      'w.type',
      'latest.type as latestType',
      'i.id as institutionId',
      'i.name as institutionName',
      db.raw('COALESCE(n.prefix, rn.prefix) AS prefix'),
      db.raw('COALESCE(n.name, rn.name) AS "namespaceName"'),
    )
    .leftJoin('namespaces as n', 'n.id', 'w.namespaceId')
    .leftJoin('resources as r', 'r.id', 'w.resourceId')
    .leftJoin('namespaces as rn', 'rn.id', 'r.namespaceId')
    .leftJoin('institutions as i', 'i.id', 'w.institutionId')
    .joinRaw('LEFT JOIN LATERAL (SELECT e.type FROM curation_warning_events e WHERE e.warning_id = w.id ORDER BY e.id DESC LIMIT 1) latest ON true')
    .where('w.open', true)) as OpenWarningRow[];
  const entries = new Map<string, SummaryEntry>();
  for (const row of rows) {
    const targetInfo =
      row.institutionId !== null
        ? { type: 'Institution' as const, identifier: String(row.institutionId), label: row.institutionName ?? '' }
        : { type: 'Prefix' as const, identifier: row.prefix ?? '', label: row.namespaceName ?? '' };
    const key = `${targetInfo.type}\u0000${targetInfo.identifier}`;
    let entry = entries.get(key);
    if (!entry) {
      entry = { targetInfo, failingInstitutionUrl: 0, lowAvailabilityResources: 0, hasCurationValues: false, hasPossibleWikidataError: false, allDisabled: true };
      entries.set(key, entry);
    }
    if (row.type === 'url-not-ok') entry.failingInstitutionUrl++;
    else if (row.type === 'low-availability-resource') entry.lowAvailabilityResources++;
    else if (row.type === 'curator-review') entry.hasCurationValues = true;
    else if (row.type === 'wikidata-institution-diff') entry.hasPossibleWikidataError = true;
    if (row.latestType !== 'DISABLED') entry.allDisabled = false;
  }
  const usage = (await db('usage_daily')
    .select('prefix')
    .sum({ visits: 'visits' })
    .where('day', '>=', db.raw(`current_date - ${SUMMARY_USAGE_DAYS}`))
    .groupBy('prefix')
    .orderBy('prefix')) as { prefix: string; visits: string | number }[];
  const namespaceUsage: Record<string, number> = {};
  for (const { prefix, visits } of usage) namespaceUsage[prefix] = Number(visits);
  const summaryEntries = [...entries.values()].sort((a, b) => a.targetInfo.label.localeCompare(b.targetInfo.label) || a.targetInfo.identifier.localeCompare(b.targetInfo.identifier));
  return { namespaceUsage, summaryEntries };
}

/** The warnings actions on the registry's database (what warnings.routes.ts is given). */
export function createWarningsActions(db: Db) {
  return {
    listItemWarnings: (owner: CurationWarningOwner, rawId: string) => listItemWarnings(db, owner, rawId),
    findWarning: (rawId: string) => findWarning(db, rawId),
    listWarningEvents: (rawId: string) => listWarningEvents(db, rawId),
    sync: (curator: Curator, notifications: readonly WarningNotification[]) => syncWarnings(db, curator, notifications),
    summarize: () => summarizeWarnings(db),
  };
}
