import type { Db } from '../../db/knex.js';
import { findNamespaceByPrefixIgnoringCase } from '../../db/registry-reads.js';

/** What the namespace page reads (built by the registry app on its database). */
export interface NamespacePageService {
  /** The id of the namespace whose prefix is this one whatever its case, if any. */
  namespaceId(prefix: string): Promise<number | undefined>;
}

export function createNamespacePageService(db: Db): NamespacePageService {
  return { namespaceId: async (prefix) => (await findNamespaceByPrefixIgnoringCase(db, prefix))?.id };
}
