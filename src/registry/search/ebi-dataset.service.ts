import type { Db } from '../../db/knex.js';
import { selectResourcesWithInstitution, type ResourceWithInstitutionRow } from '../../db/registry-reads.js';
import type { NamespaceRow } from '../../db/tables.js';

export type EbiNamespace = Pick<
  NamespaceRow,
  'id' | 'prefix' | 'mirId' | 'name' | 'description' | 'pattern' | 'sampleId' | 'created' | 'modified' | 'deprecated' | 'deprecationDate'
>;

export type EbiResource = Pick<ResourceWithInstitutionRow, 'namespaceId' | 'mirId' | 'name' | 'description' | 'institutionName' | 'institutionDescription'>;

export interface EbiDatasetNamespace {
  namespace: EbiNamespace;
  resources: EbiResource[];
}

/**
 * The namespaces of the EBI Search export (the reference's /registryInsightApi/getEbiSearchDataset), each
 * with its resources and their institutions, in id order; `modifiedAfter` keeps those modified since.
 */
export async function readEbiDataset(db: Db, modifiedAfter: Date | null): Promise<EbiDatasetNamespace[]> {
  const namespaces = db('namespaces')
    .select('id', 'prefix', 'mirId', 'name', 'description', 'pattern', 'sampleId', 'created', 'modified', 'deprecated', 'deprecationDate')
    .orderBy('id');
  if (modifiedAfter) void namespaces.where('modified', '>', modifiedAfter);
  const rows: EbiNamespace[] = await namespaces;
  if (rows.length === 0) return [];
  const resources = selectResourcesWithInstitution(db).orderBy('r.id');
  if (modifiedAfter) void resources.whereIn('r.namespaceId', rows.map((n) => n.id));
  const byNamespace = new Map<number, EbiResource[]>();
  for (const resource of await resources) {
    let list = byNamespace.get(resource.namespaceId);
    if (!list) byNamespace.set(resource.namespaceId, (list = []));
    list.push(resource);
  }
  return rows.map((namespace) => ({ namespace, resources: byNamespace.get(namespace.id) ?? [] }));
}
