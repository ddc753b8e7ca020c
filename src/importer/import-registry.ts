import type { Knex } from 'knex';
import type { DatasetInstitution, DatasetNamespace, DatasetResource } from './dataset.schema.js';
import { ImportFormatError } from './read-dataset.js';
import { storeDerivedLuiRules } from './lui-rules-import.js';

export interface KindSummary {
  created: number;
  updated: number;
  unchanged: number;
  /** Present only when the import pruned. */
  deleted?: number;
}

export interface ImportSummary {
  namespaces: KindSummary;
  resources: KindSummary;
  institutions: KindSummary;
  /** Locations are reference data: the import renames them, never creates or deletes them. */
  locations: { updated: number; unchanged: number };
}

export interface ImportOptions {
  /** Also delete what the file no longer lists. */
  prune?: boolean;
  onProgress?: (done: number, total: number) => void;
}

type Row = Record<string, unknown>;
type StoredRow = Row & { id: number };
type Status = 'created' | 'updated' | 'unchanged';

interface Wanted {
  key: string;
  referenceId: number | undefined;
  values: Row;
}

interface Upserted {
  summary: KindSummary;
  ids: Map<string, number>;
  status: Map<string, Status>;
  /** The stored row (as it was before the import) each wanted key updated or left unchanged. */
  matched: Map<string, StoredRow>;
  /** Stored rows the file does not list. */
  absent: StoredRow[];
}

// About 25 columns per resource row: 500 rows stay far below Postgres' 65535 bind parameters.
const CHUNK = 500;
// The registry tables' id sequences only: registry_changes.version must never move back, since readers
// hold the last version they have seen.
const SEQUENCED_TABLES = ['persons', 'institutions', 'namespaces', 'resources'] as const;

const toDate = (value: string | null): Date | null => (value === null ? null : new Date(value));

function sameValue(wanted: unknown, stored: unknown): boolean {
  if (wanted instanceof Date || stored instanceof Date) {
    return wanted instanceof Date && stored instanceof Date && wanted.getTime() === stored.getTime();
  }
  return wanted === stored;
}

function differs(values: Row, stored: Row): boolean {
  return Object.keys(values).some((field) => !sameValue(values[field], stored[field]));
}

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Next id of the table's sequence = max(id) + 1 (or 1 on an empty table). */
async function resetSequence(trx: Knex.Transaction, table: string): Promise<void> {
  await trx.raw(
    'SELECT setval(pg_get_serial_sequence(?, ?), GREATEST((SELECT max(id) FROM ??), 1), (SELECT max(id) FROM ??) IS NOT NULL)',
    [table, 'id', table, table],
  );
}

class Progress {
  private done = 0;
  constructor(
    private readonly total: number,
    private readonly report?: (done: number, total: number) => void,
  ) {}
  add(count: number): void {
    this.done += count;
    this.report?.(this.done, this.total);
  }
}

interface Target {
  table: string;
  keyColumn: string;
  keyOf: (row: Row) => string;
  /**
   * A second unique column that identifies the same thing under another key (a renamed institution keeps
   * its ROR id, a renamed prefix its MIR id): matching on it updates the row where creating a new one
   * would break that column's unique constraint.
   */
  renamedOf?: (row: Row) => string | null;
}

/** Pairs each wanted record with the stored row it updates, if any; stored rows nobody wants are absent. */
function matchRows(target: Target, stored: StoredRow[], wanted: Wanted[]): { matched: Map<string, StoredRow>; absent: StoredRow[] } {
  const { keyOf, renamedOf } = target;
  const byKey = new Map(stored.map((row) => [keyOf(row), row]));
  const wantedKeys = new Set(wanted.map((w) => w.key));
  const renameCandidates = new Map<string, StoredRow>();
  for (const row of stored) {
    const other = renamedOf?.(row);
    if (other && !wantedKeys.has(keyOf(row))) renameCandidates.set(other, row);
  }
  const matched = new Map<string, StoredRow>();
  for (const { key, values } of wanted) {
    const other = renamedOf?.(values);
    const row = byKey.get(key) ?? (other ? renameCandidates.get(other) : undefined);
    if (!row) continue;
    matched.set(key, row);
    if (other) renameCandidates.delete(other);
  }
  const matchedIds = new Set([...matched.values()].map((row) => row.id));
  return { matched, absent: stored.filter((row) => !matchedIds.has(row.id)) };
}

/**
 * Updates the wanted rows whose imported fields differ, creates the missing ones (keeping their reference
 * id when it is free), and leaves the others untouched so that a re-import writes nothing.
 */
async function upsertRows(
  trx: Knex.Transaction,
  target: Target,
  wanted: Wanted[],
  stamps: { create: Row; update: Row },
  progress: Progress,
): Promise<Upserted> {
  const { table, keyColumn, keyOf } = target;
  const stored = await trx(table).select<StoredRow[]>('*');
  const { matched, absent } = matchRows(target, stored, wanted);
  const takenIds = new Set(stored.map((row) => row.id));
  const ids = new Map<string, number>();
  const status = new Map<string, Status>();
  const withId: Row[] = [];
  const withoutId: Row[] = [];
  const updates: { id: number; patch: Row }[] = [];

  for (const { key, referenceId, values } of wanted) {
    const row = matched.get(key);
    if (row) {
      ids.set(key, row.id);
      if (differs(values, row)) {
        updates.push({ id: row.id, patch: { ...values, ...stamps.update } });
        status.set(key, 'updated');
      } else status.set(key, 'unchanged');
    } else {
      status.set(key, 'created');
      if (referenceId !== undefined && !takenIds.has(referenceId)) {
        takenIds.add(referenceId);
        withId.push({ id: referenceId, ...values, ...stamps.create });
      } else withoutId.push({ ...values, ...stamps.create });
    }
  }
  progress.add(wanted.length - withId.length - withoutId.length - updates.length);

  // Updates first: a value an updated row gives up (a ROR id) may be what a new row takes.
  for (const { id, patch } of updates) {
    await trx(table).where({ id }).update(patch);
    progress.add(1);
  }
  const insert = async (rows: Row[]) => {
    for (const chunk of chunks(rows)) {
      const inserted = await trx(table).insert(chunk).returning<StoredRow[]>(['id', keyColumn]);
      for (const row of inserted) ids.set(keyOf(row), row.id);
      progress.add(chunk.length);
    }
  };
  await insert(withId);
  // Explicit ids may lie ahead of the sequence; it must pass them before Postgres assigns any.
  if (withoutId.length) await resetSequence(trx, table);
  await insert(withoutId);

  const created = withId.length + withoutId.length;
  const summary = { created, updated: updates.length, unchanged: wanted.length - created - updates.length };
  return { summary, ids, status, matched, absent };
}

function distinctInstitutions(namespaces: DatasetNamespace[]): DatasetInstitution[] {
  const byName = new Map<string, DatasetInstitution>();
  for (const ns of namespaces) for (const r of ns.resources) if (!byName.has(r.institution.name)) byName.set(r.institution.name, r.institution);
  return [...byName.values()];
}

async function renameLocations(trx: Knex.Transaction, namespaces: DatasetNamespace[]): Promise<ImportSummary['locations']> {
  const wanted = new Map<string, string>();
  for (const ns of namespaces) {
    for (const r of ns.resources) {
      for (const location of [r.location, r.institution.location]) wanted.set(location.countryCode, location.countryName);
    }
  }
  const stored = await trx('locations').select('countryCode', 'countryName');
  const names = new Map(stored.map((l) => [l.countryCode, l.countryName]));
  const summary = { updated: 0, unchanged: 0 };
  for (const [countryCode, countryName] of wanted) {
    if (names.get(countryCode) === countryName) summary.unchanged++;
    else {
      // The reference's location names are older ISO short names ("Czech Republic"); the dataset is what
      // clients compare against, so its spelling wins over the migration's.
      await trx('locations').where({ countryCode }).update({ countryName });
      summary.updated++;
    }
  }
  return summary;
}

const namespaceValues = (ns: DatasetNamespace): Row => ({
  prefix: ns.prefix,
  mirId: ns.mirId,
  name: ns.name,
  pattern: ns.pattern,
  description: ns.description,
  created: new Date(ns.created),
  modified: new Date(ns.modified),
  sampleId: ns.sampleId,
  namespaceEmbeddedInLui: ns.namespaceEmbeddedInLui,
  deprecated: ns.deprecated,
  deprecationDate: toDate(ns.deprecationDate),
  deprecationOfflineDate: toDate(ns.deprecationOfflineDate),
  renderDeprecatedLanding: ns.renderDeprecatedLanding,
  deprecationStatement: ns.deprecationStatement,
  infoOnPostmortemAccess: ns.infoOnPostmortemAccess,
});

const resourceValues = (r: DatasetResource, namespaceId: number, institutionId: number): Row => ({
  mirId: r.mirId,
  urlPattern: r.urlPattern,
  name: r.name,
  description: r.description,
  official: r.official,
  providerCode: r.providerCode,
  sampleId: r.sampleId,
  resourceHomeUrl: r.resourceHomeUrl,
  namespaceId,
  institutionId,
  locationCountryCode: r.location.countryCode,
  deprecated: r.deprecated,
  deprecationDate: toDate(r.deprecationDate),
  deprecationOfflineDate: toDate(r.deprecationOfflineDate),
  renderDeprecatedLanding: r.renderDeprecatedLanding,
  deprecationStatement: r.deprecationStatement,
  protectedUrls: r.protectedUrls,
  renderProtectedLanding: r.renderProtectedLanding,
  authHelpUrl: r.authHelpUrl,
  authHelpDescription: r.authHelpDescription,
});

// Prefixes are unique whatever their case (see the migration's lower(prefix) index).
const namespacesByPrefix: Target = {
  table: 'namespaces',
  keyColumn: 'prefix',
  keyOf: (row) => String(row.prefix).toLowerCase(),
  renamedOf: (row) => String(row.mirId),
};
const institutionsByName: Target = {
  table: 'institutions',
  keyColumn: 'name',
  keyOf: (row) => String(row.name),
  renamedOf: (row) => (typeof row.rorId === 'string' ? row.rorId : null),
};
const resourcesByMirId: Target = { table: 'resources', keyColumn: 'mirId', keyOf: (row) => String(row.mirId) };

function mustGet<K, V>(map: Map<K, V>, key: K): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`importer bug: no id for ${String(key)}`);
  return value;
}

/** The prefix a successor designates: by prefix, or by the reference id of a namespace of the same file. */
function successorPrefix(ns: DatasetNamespace, byReferenceId: Map<number, string>): string | null {
  const { successor } = ns;
  if (successor === null) return null;
  if (typeof successor === 'string') return successor;
  if (successor.prefix !== undefined) return successor.prefix;
  return successor.id === undefined ? null : (byReferenceId.get(successor.id) ?? `#${successor.id}`);
}

/** Sets successor_id once every namespace has an id; a successor change alone makes a namespace updated. */
async function linkSuccessors(trx: Knex.Transaction, namespaces: DatasetNamespace[], upserted: Upserted): Promise<void> {
  const byReferenceId = new Map(namespaces.flatMap((ns) => (ns.id === undefined ? [] : [[ns.id, ns.prefix] as const])));
  const stored = await trx('namespaces').select('id', 'prefix');
  const idByPrefix = new Map(stored.map((row) => [row.prefix.toLowerCase(), row.id]));
  for (const [index, ns] of namespaces.entries()) {
    const key = ns.prefix.toLowerCase();
    const target = successorPrefix(ns, byReferenceId);
    const successorId = target === null ? null : idByPrefix.get(target.toLowerCase());
    if (successorId === undefined) {
      throw new ImportFormatError(`namespaces[${index}] (prefix '${ns.prefix}'): successor '${target}' is not a namespace of the registry`);
    }
    // A namespace created by this import has no successor yet, as the insert left it null.
    if ((upserted.matched.get(key)?.successorId ?? null) === successorId) continue;
    await trx('namespaces').where({ id: mustGet(upserted.ids, key) }).update({ successorId });
    if (upserted.status.get(key) === 'unchanged') {
      upserted.status.set(key, 'updated');
      upserted.summary.unchanged--;
      upserted.summary.updated++;
    }
  }
}

async function deleteByIds(trx: Knex.Transaction, table: string, ids: number[]): Promise<number> {
  for (const chunk of chunks(ids, 10_000)) await trx(table).whereIn('id', chunk).delete();
  return ids.length;
}

const absentIds = (upserted: Upserted): number[] => upserted.absent.map((row) => row.id);

/** Resources first, then their namespaces, then institutions that nothing points at any more. */
async function prune(trx: Knex.Transaction, namespaces: Upserted, resources: Upserted, institutions: Upserted): Promise<void> {
  resources.summary.deleted = await deleteByIds(trx, 'resources', absentIds(resources));
  namespaces.summary.deleted = await deleteByIds(trx, 'namespaces', absentIds(namespaces));
  const referenced = new Set((await trx('resources').distinct('institutionId')).map((r) => r.institutionId));
  institutions.summary.deleted = await deleteByIds(trx, 'institutions', absentIds(institutions).filter((id) => !referenced.has(id)));
}

/**
 * Loads a validated dataset into the registry in one transaction: namespaces match by prefix (any case),
 * resources by MIR id, institutions by name; the file's values win; reference ids are kept where free.
 */
export async function importRegistry(db: Knex, namespaces: DatasetNamespace[], options: ImportOptions): Promise<ImportSummary> {
  const institutionList = distinctInstitutions(namespaces);
  const resourceCount = namespaces.reduce((sum, ns) => sum + ns.resources.length, 0);
  const progress = new Progress(institutionList.length + namespaces.length + resourceCount, options.onProgress);
  const now = new Date();
  const stamps = { create: { created: now, modified: now }, update: { modified: now } };

  return db.transaction(async (trx) => {
    // Writers wait until the import commits; readers go on. The sequences are reset at the end, which
    // would be unsafe if another writer inserted meanwhile.
    await trx.raw('LOCK TABLE locations, persons, institutions, namespaces, resources IN SHARE ROW EXCLUSIVE MODE');
    const locations = await renameLocations(trx, namespaces);

    const institutions = await upsertRows(
      trx,
      institutionsByName,
      institutionList.map((i) => ({
        key: i.name,
        referenceId: i.id,
        values: { name: i.name, homeUrl: i.homeUrl, description: i.description, rorId: i.rorId, locationCountryCode: i.location.countryCode },
      })),
      stamps,
      progress,
    );

    const namespaceRows = await upsertRows(
      trx,
      namespacesByPrefix,
      namespaces.map((ns) => ({ key: ns.prefix.toLowerCase(), referenceId: ns.id, values: namespaceValues(ns) })),
      { create: {}, update: {} },
      progress,
    );

    await storeDerivedLuiRules(
      trx,
      namespaces.map((ns) => {
        const key = ns.prefix.toLowerCase();
        return { id: mustGet(namespaceRows.ids, key), prefix: ns.prefix, pattern: ns.pattern, before: namespaceRows.matched.get(key) };
      }),
    );

    const resources = await upsertRows(
      trx,
      resourcesByMirId,
      namespaces.flatMap((ns) =>
        ns.resources.map((r) => ({
          key: r.mirId,
          referenceId: r.id,
          values: resourceValues(r, mustGet(namespaceRows.ids, ns.prefix.toLowerCase()), mustGet(institutions.ids, r.institution.name)),
        })),
      ),
      stamps,
      progress,
    );

    if (options.prune) await prune(trx, namespaceRows, resources, institutions);
    // After pruning, so that a successor the prune removed is reported instead of silently unset.
    await linkSuccessors(trx, namespaces, namespaceRows);
    for (const table of SEQUENCED_TABLES) await resetSequence(trx, table);

    return {
      namespaces: namespaceRows.summary,
      resources: resources.summary,
      institutions: institutions.summary,
      locations,
    };
  });
}
