import { findInstitutionLocation } from '../../db/registry-reads.js';
import { notFound } from '../../http/http-error.js';
import { COLLECTIONS } from '../model/collections.js';
import { getItem, itemNotFound } from '../model/items.service.js';
import { emptyPage, fetchSearchPage, type Filter, type OrderTerm, type Page, type RestApiStore } from '../model/page-query.js';
import { canMatch, escapeLike, parseId, quote } from '../model/query-values.js';
import type { PageRequest } from '../model/paging.js';
import type { InstitutionRow, LocationRow } from '../model/rows.js';

const collection = COLLECTIONS.institutions;
// Name searches list by name unless asked otherwise, which the unique index on name serves while filtering.
const BY_NAME: readonly OrderTerm[] = [{ column: 'name', direction: 'asc' }];

/** Case-sensitive LIKE '%text%' (the reference's findByNameContaining); the trigram index on name serves it. */
export function findInstitutionsByNameContaining(store: RestApiStore, nameContent: string, request: PageRequest): Promise<Page<InstitutionRow>> {
  if (!canMatch(nameContent)) return Promise.resolve(emptyPage<InstitutionRow>(request));
  const filter: Filter = (q) => void q.whereRaw('name LIKE ?', [`%${escapeLike(nameContent)}%`]);
  return fetchSearchPage(store, collection, { countKey: `containing\u0000${nameContent}`, filter, defaultOrder: BY_NAME }, request);
}

export function findInstitutionsByNameContainingIgnoringCase(
  store: RestApiStore,
  nameContent: string,
  request: PageRequest,
): Promise<Page<InstitutionRow>> {
  if (!canMatch(nameContent)) return Promise.resolve(emptyPage<InstitutionRow>(request));
  const filter: Filter = (q) => void q.whereRaw('name ILIKE ?', [`%${escapeLike(nameContent)}%`]);
  return fetchSearchPage(store, collection, { countKey: `containingIgnoreCase\u0000${nameContent}`, filter, defaultOrder: BY_NAME }, request);
}

export function findInstitutionsByLocationCountryCode(store: RestApiStore, countryCode: string, request: PageRequest): Promise<Page<InstitutionRow>> {
  if (!canMatch(countryCode)) return Promise.resolve(emptyPage<InstitutionRow>(request));
  const filter: Filter = (q) => void q.where({ locationCountryCode: countryCode });
  return fetchSearchPage(store, collection, { countKey: `country\u0000${countryCode}`, filter }, request);
}

export async function getInstitutionLocation(store: RestApiStore, rawId: string): Promise<LocationRow> {
  const id = parseId(rawId);
  const row = id === null ? undefined : await findInstitutionLocation(store.db, id);
  if (!row) throw itemNotFound(collection, 'id', rawId);
  return row;
}

/**
 * The reference's Institution carries a vestigial to-one `resource` that nothing ever sets, so its link
 * always leads to a 404; the institution's resources are findAllByInstitutionId.
 */
export async function getInstitutionResource(store: RestApiStore, rawId: string): Promise<never> {
  await getItem(store, collection, rawId);
  throw notFound(`Institution with id ${quote(rawId)} has no resource (see /restApi/resources/search/findAllByInstitutionId?id=${rawId})`);
}
