import { findResourceInstitution, findResourceLocation, findResourceNamespace } from '../../db/registry-reads.js';
import { COLLECTIONS } from '../model/collections.js';
import { itemNotFound } from '../model/items.service.js';
import { emptyPage, fetchList, fetchSearchPage, type Filter, type Page, type RestApiStore } from '../model/page-query.js';
import { canMatch, parseId } from '../model/query-values.js';
import type { PageRequest } from '../model/paging.js';
import type { InstitutionRow, LocationRow, NamespaceRow, ResourceRow } from '../model/rows.js';

const collection = COLLECTIONS.resources;

/** A namespace id that is not a number names no namespace: an empty list, like an unknown id. */
export async function findAllResourcesByNamespaceId(store: RestApiStore, rawNamespaceId: string): Promise<ResourceRow[]> {
  const namespaceId = parseId(rawNamespaceId);
  if (namespaceId === null) return [];
  return fetchList<ResourceRow>(store, collection, (q) => void q.where({ namespaceId }));
}

export async function findAllResourcesByInstitutionId(store: RestApiStore, rawInstitutionId: string): Promise<ResourceRow[]> {
  const institutionId = parseId(rawInstitutionId);
  if (institutionId === null) return [];
  return fetchList<ResourceRow>(store, collection, (q) => void q.where({ institutionId }));
}

export async function findResourcesByNamespaceIdAndProviderCode(
  store: RestApiStore,
  rawNamespaceId: string,
  providerCode: string,
): Promise<ResourceRow[]> {
  const namespaceId = parseId(rawNamespaceId);
  if (namespaceId === null || !canMatch(providerCode)) return [];
  return fetchList<ResourceRow>(store, collection, (q) => void q.where({ namespaceId, providerCode }));
}

/** Exact; an empty code is a real value (most legacy resources have one). */
export function findResourcesByProviderCode(store: RestApiStore, providerCode: string, request: PageRequest): Promise<Page<ResourceRow>> {
  if (!canMatch(providerCode)) return Promise.resolve(emptyPage<ResourceRow>(request));
  const filter: Filter = (q) => void q.where({ providerCode });
  return fetchSearchPage(store, collection, { countKey: `providerCode\u0000${providerCode}`, filter }, request);
}

/** A resource always points at a namespace, institution and location (the foreign keys are NOT NULL). */
async function resourceTarget<T>(rawId: string, find: (id: number) => Promise<T | undefined>): Promise<T> {
  const id = parseId(rawId);
  const row = id === null ? undefined : await find(id);
  if (!row) throw itemNotFound(collection, 'id', rawId);
  return row;
}

export function getResourceNamespace(store: RestApiStore, rawId: string): Promise<NamespaceRow> {
  return resourceTarget(rawId, (id) => findResourceNamespace(store.db, id));
}

export function getResourceInstitution(store: RestApiStore, rawId: string): Promise<InstitutionRow> {
  return resourceTarget(rawId, (id) => findResourceInstitution(store.db, id));
}

export function getResourceLocation(store: RestApiStore, rawId: string): Promise<LocationRow> {
  return resourceTarget(rawId, (id) => findResourceLocation(store.db, id));
}
