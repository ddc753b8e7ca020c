import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import type { CollectionDefinition } from './collections.js';
import type { Direction, PageRequest } from './paging.js';
import type { MaxAge, RegistryVersion } from './registry-version.js';
import { VersionedCache } from './versioned-cache.js';

/** Keys of a whole collection in one order (ids, or country codes for locations). */
type KeyList = readonly (number | string)[];

/** Shared by every request of a router: counts per filter, and a collection's keys per order. */
export class RestApiCaches {
  readonly counts: VersionedCache<number>;
  readonly keyLists: VersionedCache<KeyList>;

  /** `ttlMs`: as VersionedCacheOptions.ttlMs (RegistryVersionSource.maxAgeMs in the service). */
  constructor(ttlMs?: MaxAge) {
    this.counts = new VersionedCache<number>({ maxEntries: 5000, ttlMs });
    // 100,000 ids are about 1 MB: a few orders of each collection stay well within memory.
    this.keyLists = new VersionedCache<KeyList>({ maxEntries: 16, ttlMs });
  }
}

/** What every rest-api service reads with: the database, the caches and the registry version of the request. */
export interface RestApiStore {
  db: Db;
  caches: RestApiCaches;
  /** The registry version read at the start of the request (see registry-version.ts). */
  version: RegistryVersion;
}

/**
 * The database and caches behind the rest-api services: what the browse routes are given, which hand each
 * request's services a store at the registry version the request started with.
 */
export class RestApiData {
  constructor(
    private readonly db: Db,
    readonly caches: RestApiCaches,
  ) {}

  storeAt(version: RegistryVersion): RestApiStore {
    return { db: this.db, caches: this.caches, version };
  }
}

export interface Page<T> {
  items: T[];
  totalElements: number;
  request: PageRequest;
}

export type Filter = (query: Knex.QueryBuilder) => void;

export interface OrderTerm {
  column: string;
  direction: Direction;
}

export function emptyPage<T>(request: PageRequest): Page<T> {
  return { items: [], totalElements: 0, request };
}

/**
 * The order actually applied: the client's (or the search's default), cut after the first unique column
 * (nothing can tie after it), else completed by the key, so that every page is deterministic.
 */
function effectiveOrder(collection: CollectionDefinition, request: PageRequest, defaultOrder: readonly OrderTerm[]): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (const term of request.sort.length > 0 ? request.sort : defaultOrder) {
    terms.push({ column: term.column, direction: term.direction });
    if (term.column === collection.key.column || collection.uniqueColumns.includes(term.column)) return terms;
  }
  terms.push({ column: collection.key.column, direction: 'asc' });
  return terms;
}

function applyOrder(query: Knex.QueryBuilder, collection: CollectionDefinition, terms: OrderTerm[], alias: string): void {
  for (const { column, direction } of terms) {
    if (collection.patternOrderedColumns.includes(column)) {
      void query.orderByRaw(`?? USING ${direction === 'asc' ? '~<~' : '~>~'}`, [`${alias}.${column}`]);
    } else {
      void query.orderBy(`${alias}.${column}`, direction);
    }
  }
}

// From this offset on a search pages through its key list too: an OFFSET skips rows one by one.
const DEEP_OFFSET = 1000;

/**
 * A page read through the list of every matching key in the page's order, kept per registry version:
 * the list costs one index scan, then any page, however deep, reads just its rows by key.
 */
async function fetchPageByKeys<T>(
  store: RestApiStore,
  collection: CollectionDefinition,
  listKey: string,
  filter: Filter | undefined,
  terms: OrderTerm[],
  request: PageRequest,
): Promise<Page<T>> {
  const signature = `${collection.name}\u0000${listKey}\u0000${terms.map((t) => `${t.column} ${t.direction}`).join(',')}`;
  const keys = await store.caches.keyLists.get(store.version, signature, async () => {
    const query = store.db({ k: collection.name }).select<{ key: number | string }[]>(`k.${collection.key.column} as key`);
    if (filter) filter(query);
    applyOrder(query, collection, terms, 'k');
    return (await query).map((row) => row.key);
  });
  const offset = request.page * request.size;
  const wanted = offset < keys.length ? keys.slice(offset, offset + request.size) : [];
  if (wanted.length === 0) return { items: [], totalElements: keys.length, request };
  const rows = await store.db(collection.name).select<Record<string, unknown>[]>('*').whereIn(collection.key.column, wanted);
  const byKey = new Map(rows.map((row) => [row[collection.key.column] as number | string, row]));
  // A row deleted since the key list was read is simply missing from the page.
  const items = wanted.flatMap((key) => (byKey.has(key) ? [byKey.get(key) as T] : []));
  return { items, totalElements: keys.length, request };
}

/**
 * A page of a whole collection. Clients page through collections to the end, and an OFFSET deep into
 * 100,000 rows costs milliseconds per request, so every page is read through the collection's key list.
 */
export function fetchCollectionPage<T>(store: RestApiStore, collection: CollectionDefinition, request: PageRequest): Promise<Page<T>> {
  return fetchPageByKeys(store, collection, 'all', undefined, effectiveOrder(collection, request, []), request);
}

export interface SearchQuery {
  /** Identifies the filter (with its values) in the count cache. */
  countKey: string;
  filter: Filter;
  /** The order when the client gives none (the key's when absent). */
  defaultOrder?: readonly OrderTerm[];
}

/**
 * A page of a search: LIMIT/OFFSET on the indexed filter while the offset is small, the search's key list
 * beyond. totalElements comes from the count cache, and is not needed at all when the first page is not
 * full (as Spring Data does); a page past the end costs no row query.
 */
export async function fetchSearchPage<T>(store: RestApiStore, collection: CollectionDefinition, search: SearchQuery, request: PageRequest): Promise<Page<T>> {
  const { filter } = search;
  const offset = request.page * request.size;
  const total = () =>
    store.caches.counts.get(store.version, `${collection.name}\u0000${search.countKey}`, async () => {
      const counting = store.db(collection.name).count({ count: '*' });
      filter(counting);
      const row = await counting.first();
      return Number(row?.count ?? 0);
    });

  let totalElements: number | undefined;
  if (offset > 0) {
    totalElements = await total();
    if (offset >= totalElements) return { items: [], totalElements, request };
  }
  const terms = effectiveOrder(collection, request, search.defaultOrder ?? []);
  if (offset >= DEEP_OFFSET) return fetchPageByKeys(store, collection, search.countKey, filter, terms, request);
  const rows = store.db({ t: collection.name }).select('t.*').limit(request.size).offset(offset);
  filter(rows);
  applyOrder(rows, collection, terms, 't');
  const items = (await rows) as T[];
  if (totalElements === undefined) totalElements = items.length < request.size ? items.length : await total();
  return { items, totalElements, request };
}

/** Every row matching a filter, in key order: the reference's non-paged (List) searches. */
export async function fetchList<T>(store: RestApiStore, collection: CollectionDefinition, filter: Filter): Promise<T[]> {
  const query = store.db(collection.name).select('*').orderBy(collection.key.column);
  filter(query);
  return (await query) as T[];
}

/** The one row matching a filter, or undefined. */
export async function fetchOne<T>(store: RestApiStore, collection: CollectionDefinition, filter: Filter): Promise<T | undefined> {
  const query = store.db(collection.name).select('*').orderBy(collection.key.column).first();
  filter(query);
  return (await query) as T | undefined;
}
