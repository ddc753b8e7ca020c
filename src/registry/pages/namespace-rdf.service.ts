import type { Db } from '../../db/knex.js';
import { selectResourcesWithInstitution } from '../../db/registry-reads.js';
import { selectDatasetNamespaces } from '../../dataset/build-dataset.js';
import type { RdfNamespace } from '../../dataset/export-rdf.presenter.js';
import { readExportSynonyms, type ReadSynonyms } from '../../dataset/export-synonyms.js';

/** What a namespace's RDF is made from (built by the registry app on its database). */
export interface NamespaceRdfService {
  /** The namespace whose prefix is this one whatever its case, with its resources and synonyms, if any. */
  namespaceRdf(prefix: string): Promise<RdfNamespace | undefined>;
}

/** The rows the dataset build reads, for one namespace, so that its RDF says what the registry.ttl export says. */
export function createNamespaceRdfService(db: Db, readSynonyms: ReadSynonyms = readExportSynonyms): NamespaceRdfService {
  return {
    namespaceRdf: async (prefix) => {
      const row = await selectDatasetNamespaces(db).whereRaw('lower(n.prefix) = lower(?)', [prefix]).first();
      if (!row) return undefined;
      const [resources, synonyms] = await Promise.all([
        selectResourcesWithInstitution(db).where('r.namespaceId', row.id).orderBy('r.id'),
        readSynonyms(db, [row.id]),
      ]);
      return { row, resources, synonyms: synonyms.get(row.id) ?? [] };
    },
  };
}
