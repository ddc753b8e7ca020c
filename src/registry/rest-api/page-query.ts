import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import type { CollectionDefinition } from './collections.js';
import type { CountCache } from './count-cache.js';
import type { Direction, PageRequest } from './paging.js';

/** What every rest-api service reads with: the database and the shared count cache. */
export interface RestApiStore {
  db: Db;
  counts: CountCache;
}

export interface Page<T> {
  items: T[];
  totalElements: number;
  request: PageRequest;
}

export type Filter = (query: Knex.QueryBuilder) => void;

/** The longest value any searched column holds: a longer one cannot match, and is not sent to Postgres. */
export const MAX_COLUMN_LENGTH = 2000;

/**
 * Whether a client's value could be stored in a column at all. Postgres refuses NUL characters with an
 * error, and an over-long value cannot match, so such values are answered "no match" without a query.
 */
export function canMatch(value: string, maxLength = MAX_COLUMN_LENGTH): boolean {
  return value.length <= maxLength && !value.includes('\u0000');
}

/** A LIKE pattern that matches `value` literally (Postgres' default escape character is the backslash). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Client values echoed in messages are cut short: a message names what is missing, it is not a mirror. */
export function quote(value: string): string {
  return value.length > 100 ? `'${value.slice(0, 100)}...'` : `'${value}'`;
}

/** Registry ids are bigint: a path or parameter that is not a plausible id cannot name a row. */
export function parseId(raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw)) return null;
  return Number(raw);
}

export function emptyPage<T>(request: PageRequest): Page<T> {
  return { items: [], totalElements: 0, request };
}

export interface OrderTerm {
  column: string;
  direction: Direction;
}

/**
 * The order actually applied: the client's (or the search's default), cut after the first unique column
 * (nothing can tie after it), else completed by the key, so that every page is deterministic.
 */
function effectiveOrder(collection: CollectionDefinition, request: PageRequest, defaultOrder: readonly OrderTerm[]): OrderTerm[] {
  const terms: OrderTerm[] = [];
  for (const term of request.sort.length > 0 ? request.sort : defaultOrder) {
    terms.push({ column: term.column, direction: term.direction });
    if (term.column === collection.keyColumn || collection.uniqueColumns.includes(term.column)) return terms;
  }
  terms.push({ column: collection.keyColumn, direction: 'asc' });
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

export interface PageQuery {
  /** Identifies the filter (with its values) in the count cache. */
  countKey: string;
  filter: Filter;
  /** The order when the client gives none (the key's when absent). */
  defaultOrder?: readonly OrderTerm[];
}

/**
 * One page of a collection, deterministic. The page's keys are found first, by the unique column the
 * order ends on, so that an index holding that column answers with an index-only scan and a deep OFFSET
 * skips index entries rather than table rows; only the page's rows are then read in full. totalElements
 * comes from the count cache, and is not needed at all when the first page is not full (as Spring Data).
 */
export async function fetchPage<T>(store: RestApiStore, collection: CollectionDefinition, query: PageQuery, request: PageRequest): Promise<Page<T>> {
  const { filter } = query;
  const offset = request.page * request.size;
  const countRows = async (): Promise<number> => {
    const counting = store.db(collection.table).count({ count: '*' });
    filter(counting);
    const row = (await counting.first()) as { count: number | string } | undefined;
    return Number(row?.count ?? 0);
  };
  const total = () => store.counts.count(`${collection.name}\u0000${query.countKey}`, countRows);

  let totalElements: number | undefined;
  if (offset > 0) {
    totalElements = await total();
    if (offset >= totalElements) return { items: [], totalElements, request };
  }
  const terms = effectiveOrder(collection, request, query.defaultOrder ?? []);
  const pageKey = terms.length === 1 && terms[0] ? terms[0].column : collection.keyColumn;
  const keys = store.db({ k: collection.table }).select(`k.${pageKey}`).limit(request.size).offset(offset);
  filter(keys);
  applyOrder(keys, collection, terms, 'k');
  const rows = store.db({ t: collection.table }).select('t.*').whereIn(`t.${pageKey}`, keys);
  applyOrder(rows, collection, terms, 't');
  const items = (await rows) as T[];
  if (totalElements === undefined) totalElements = items.length < request.size ? items.length : await total();
  return { items, totalElements, request };
}

/** Every row matching a filter, in key order: the reference's non-paged (List) searches. */
export async function fetchList<T>(store: RestApiStore, collection: CollectionDefinition, filter: Filter): Promise<T[]> {
  const query = store.db(collection.table).select('*').orderBy(collection.keyColumn);
  filter(query);
  return (await query) as T[];
}

/** The one row matching a filter, or undefined. */
export async function fetchOne<T>(store: RestApiStore, collection: CollectionDefinition, filter: Filter): Promise<T | undefined> {
  const query = store.db(collection.table).select('*').orderBy(collection.keyColumn).first();
  filter(query);
  return (await query) as T | undefined;
}
