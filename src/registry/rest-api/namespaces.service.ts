import { findNamespaceSuccessor } from '../../db/registry-reads.js';
import { notFound } from '../../http/http-error.js';
import { COLLECTIONS } from '../model/collections.js';
import { getItem, itemNotFound } from '../model/items.service.js';
import { emptyPage, fetchList, fetchSearchPage, type Filter, type OrderTerm, type Page, type RestApiStore } from '../model/page-query.js';
import { canMatch, escapeLike, parseId, quote } from '../model/query-values.js';
import type { PageRequest } from '../model/paging.js';
import type { NamespaceRow, ResourceRow } from '../model/rows.js';

const collection = COLLECTIONS.namespaces;
// Prefix searches list by prefix unless asked otherwise: the index that finds the prefixes also yields them
// in order, so a page costs the same for 'a' (most of the registry) as for 'abcd'. The reference has no
// order without a sort parameter.
const BY_PREFIX: readonly OrderTerm[] = [{ column: 'prefix', direction: 'asc' }];

export async function namespaceExistsByPrefix(store: RestApiStore, prefix: string): Promise<boolean> {
  if (!canMatch(prefix)) return false;
  const row = await store.db('namespaces').where({ prefix }).first('id');
  return row !== undefined;
}

export function findNamespacesByPrefixStartingWith(store: RestApiStore, prefixStart: string, request: PageRequest): Promise<Page<NamespaceRow>> {
  if (!canMatch(prefixStart)) return Promise.resolve(emptyPage<NamespaceRow>(request));
  // LIKE 'abc%' is served by the text_pattern_ops index on prefix.
  const filter: Filter = (q) => void q.whereRaw('prefix LIKE ?', [`${escapeLike(prefixStart)}%`]);
  return fetchSearchPage(store, collection, { countKey: `startsWith\u0000${prefixStart}`, filter, defaultOrder: BY_PREFIX }, request);
}

/** The reference's `prefix SIMILAR TO '[0-9]%'`, as a range the text_pattern_ops index serves. */
export function findNamespacesByPrefixStartingWithNumbers(store: RestApiStore, request: PageRequest): Promise<Page<NamespaceRow>> {
  const filter: Filter = (q) => void q.whereRaw("prefix ~>=~ '0' AND prefix ~<~ ':'");
  return fetchSearchPage(store, collection, { countKey: 'startsWithNumbers', filter, defaultOrder: BY_PREFIX }, request);
}

/** Case-sensitive, like the reference's LIKE '%content%'; the trigram index on prefix serves it. */
export function findNamespacesByPrefixContaining(store: RestApiStore, content: string, request: PageRequest): Promise<Page<NamespaceRow>> {
  if (!canMatch(content)) return Promise.resolve(emptyPage<NamespaceRow>(request));
  const filter: Filter = (q) => void q.whereRaw('prefix LIKE ?', [`%${escapeLike(content)}%`]);
  return fetchSearchPage(store, collection, { countKey: `containing\u0000${content}`, filter, defaultOrder: BY_PREFIX }, request);
}

/** 404 both for an unknown namespace and for one without a successor, saying which. */
export async function getNamespaceSuccessor(store: RestApiStore, rawId: string): Promise<NamespaceRow> {
  const id = parseId(rawId);
  if (id === null) throw itemNotFound(collection, 'id', rawId);
  const row = await findNamespaceSuccessor(store.db, id);
  if (row) return row;
  await getItem(store, collection, rawId);
  throw notFound(`Namespace with id ${quote(rawId)} has no successor`);
}

/** The namespace's resources (a to-many association: a list, 404 only when the namespace is unknown). */
export async function listNamespaceResources(store: RestApiStore, rawId: string): Promise<ResourceRow[]> {
  const namespace = await getItem<NamespaceRow>(store, collection, rawId);
  return fetchList<ResourceRow>(store, COLLECTIONS.resources, (q) => void q.where({ namespaceId: namespace.id }));
}
