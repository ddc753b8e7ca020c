import { getInstitution } from './institutions.service.js';
import { getNamespace } from './namespaces.service.js';
import type { RestApiStore } from './page-query.js';
import { getResource } from './resources.service.js';

const OWNERS = { namespaces: getNamespace, resources: getResource, institutions: getInstitution } as const;

export type CurationWarningOwner = keyof typeof OWNERS;

/**
 * An item's curation warnings (a to-many association: a list, 404 only when the item is unknown). This
 * registry does not record curation warnings yet, so every item's list is empty.
 */
export async function listCurationWarnings(store: RestApiStore, owner: CurationWarningOwner, rawId: string): Promise<readonly []> {
  await OWNERS[owner](store, rawId);
  return [];
}
