import { findInstitutionLocation } from '../../db/registry-reads.js';
import { notFound } from '../../http/http-error.js';
import { COLLECTIONS } from './collections.js';
import { emptyPage, fetchCollectionPage, fetchOne, fetchSearchPage, type Filter, type OrderTerm, type Page, type RestApiStore } from './page-query.js';
import { canMatch, escapeLike, parseId, quote } from './query-values.js';
import type { PageRequest } from './paging.js';
import type { InstitutionRow, LocationRow } from './rows.js';

const collection = COLLECTIONS.institutions;
// Name searches list by name unless asked otherwise, which the unique index on name serves while filtering.
const BY_NAME: readonly OrderTerm[] = [{ column: 'name', direction: 'asc' }];

const institutionNotFound = (id: string) => notFound(`Institution with id ${quote(id)} not found`);

export function listInstitutions(store: RestApiStore, request: PageRequest): Promise<Page<InstitutionRow>> {
  return fetchCollectionPage(store, collection, request);
}

export async function getInstitution(store: RestApiStore, rawId: string): Promise<InstitutionRow> {
  const id = parseId(rawId);
  const row = id === null ? undefined : await fetchOne<InstitutionRow>(store, collection, (q) => void q.where({ id }));
  if (!row) throw institutionNotFound(rawId);
  return row;
}

export async function findInstitutionByName(store: RestApiStore, name: string): Promise<InstitutionRow> {
  const row = canMatch(name) ? await fetchOne<InstitutionRow>(store, collection, (q) => void q.where({ name })) : undefined;
  if (!row) throw notFound(`Institution with name ${quote(name)} not found`);
  return row;
}

export async function findInstitutionByRorId(store: RestApiStore, rorId: string): Promise<InstitutionRow> {
  const row = canMatch(rorId) ? await fetchOne<InstitutionRow>(store, collection, (q) => void q.where({ rorId })) : undefined;
  if (!row) throw notFound(`Institution with ROR id ${quote(rorId)} not found`);
  return row;
}

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
  if (!row) throw institutionNotFound(rawId);
  return row;
}

/**
 * The reference's Institution carries a vestigial to-one `resource` that nothing ever sets, so its link
 * always leads to a 404; the institution's resources are findAllByInstitutionId.
 */
export async function getInstitutionResource(store: RestApiStore, rawId: string): Promise<never> {
  await getInstitution(store, rawId);
  throw notFound(`Institution with id ${quote(rawId)} has no resource (see /restApi/resources/search/findAllByInstitutionId?id=${rawId})`);
}
