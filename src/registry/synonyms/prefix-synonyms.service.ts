import type { Db } from '../../db/knex.js';
import { readAllSynonymsByPrefix } from '../../db/namespace-synonyms.js';

export interface PrefixSynonymsService {
  /** Every namespace's synonyms as the extension file: prefix → synonyms, both sorted, namespaces without any left out. */
  exportFile(): Promise<Record<string, string[]>>;
}

export function createPrefixSynonymsService(db: Db): PrefixSynonymsService {
  return {
    async exportFile() {
      return Object.fromEntries(await readAllSynonymsByPrefix(db));
    },
  };
}
