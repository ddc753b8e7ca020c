import { notFound } from '../../http/http-error.js';
import { COLLECTIONS } from './collections.js';
import { fetchCollectionPage, fetchOne, type Page, type RestApiStore } from './page-query.js';
import { canMatch, quote } from './query-values.js';
import type { PageRequest } from './paging.js';
import type { LocationRow } from './rows.js';

const collection = COLLECTIONS.locations;
// Country codes are ISO 3166-1 alpha-2 (the column is varchar(2)).
const COUNTRY_CODE_LENGTH = 2;

export function listLocations(store: RestApiStore, request: PageRequest): Promise<Page<LocationRow>> {
  return fetchCollectionPage(store, collection, request);
}

async function locationByCode(store: RestApiStore, countryCode: string): Promise<LocationRow | undefined> {
  if (!canMatch(countryCode, COUNTRY_CODE_LENGTH)) return undefined;
  return fetchOne<LocationRow>(store, collection, (q) => void q.where({ countryCode }));
}

/** Exact: `gb` is not `GB`, as in the reference. */
export async function getLocation(store: RestApiStore, countryCode: string): Promise<LocationRow> {
  const row = await locationByCode(store, countryCode);
  if (!row) throw notFound(`Location with country code ${quote(countryCode)} not found`);
  return row;
}

export const findLocationByCountryCode = getLocation;
