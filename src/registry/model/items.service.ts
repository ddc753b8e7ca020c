/**
 * What every browsable collection answers alike: its pages, one item by its key, one item by a unique
 * column (the `item` searches), and the 404 that names what was asked.
 */
import type { DomainError } from '../../core/domain-error.js';
import { notFound } from '../../http/http-error.js';
import type { CollectionDefinition } from './collections.js';
import { fetchCollectionPage, fetchOne, type Page, type RestApiStore } from './page-query.js';
import type { PageRequest } from './paging.js';
import { canMatch, quote } from './query-values.js';

/** How a message names a column (`Namespace with MIR id 'MIR:00000001' not found`). */
const COLUMN_LABELS: Readonly<Record<string, string>> = {
  id: 'id',
  countryCode: 'country code',
  prefix: 'prefix',
  mirId: 'MIR id',
  name: 'name',
  rorId: 'ROR id',
};

export function itemNotFound(collection: CollectionDefinition, column: string, value: string): DomainError {
  return notFound(`${collection.noun} with ${COLUMN_LABELS[column] ?? column} ${quote(value)} not found`);
}

export function listItems<Row>(store: RestApiStore, collection: CollectionDefinition, request: PageRequest): Promise<Page<Row>> {
  return fetchCollectionPage<Row>(store, collection, request);
}

/** The item whose key a path segment gives. */
export function getItem<Row>(store: RestApiStore, collection: CollectionDefinition, rawKey: string): Promise<Row> {
  return findItem<Row>(store, collection, collection.key.column, rawKey);
}

/**
 * The item whose `column` (its key, or a unique column) holds exactly `value`, case-sensitively as in the
 * reference. A value the column cannot hold asks nothing of the database.
 */
export async function findItem<Row>(store: RestApiStore, collection: CollectionDefinition, column: string, value: string): Promise<Row> {
  const wanted = column === collection.key.column ? collection.key.parse(value) : canMatch(value) ? value : null;
  const row = wanted === null ? undefined : await fetchOne<Row>(store, collection, (q) => void q.where(column, wanted));
  if (!row) throw itemNotFound(collection, column, value);
  return row;
}
