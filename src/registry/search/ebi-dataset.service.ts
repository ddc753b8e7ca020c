import type { Db } from '../../db/knex.js';
import { selectResourcesWithInstitution, type ResourceWithInstitutionRow } from '../../db/registry-reads.js';
import type { NamespaceRow } from '../../db/tables.js';
import type { RegistryVersionSource } from '../rest-api/registry-version.js';
import { VersionedCache } from '../rest-api/versioned-cache.js';
import { platformMetadata, type SchemaOrgUrls } from '../schema-org/schema-org.presenter.js';
import { writeEbiDataset } from './ebi-search.presenter.js';

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

/** The EBI Search export's answer, its JSON's bytes (null: no namespace was modified since `start`, a date yyyy-MM-dd). */
export type EbiDatasetAnswers = (start: string | null) => Promise<Buffer | null>;

// The whole export and a few `start` dates; the whole export is about 2.5 MB of today's registry.
const KEPT_ANSWERS = 8;

/**
 * The EBI Search export written once per registry version and `start` date, and shared by the requests that
 * come meanwhile: reading and writing the whole registry costs some 40 ms of CPU, too much to spend again
 * for each request (and written in slices, so that the first request does not hold the event loop either).
 */
export function createEbiDatasetAnswers(db: Db, versions: RegistryVersionSource, urls: SchemaOrgUrls): EbiDatasetAnswers {
  const answers = new VersionedCache<Buffer | null>({ ttlMs: versions.maxAgeMs, maxEntries: KEPT_ANSWERS });
  const landingPage = (prefix: string) => `${urls.publicResolverUrl}/${prefix}`;
  return async (start) =>
    answers.get(await versions.read(), start ?? '', async () => {
      const namespaces = await readEbiDataset(db, start === null ? null : new Date(`${start}T00:00:00Z`));
      return namespaces.length === 0 ? null : writeEbiDataset(platformMetadata(urls), namespaces, landingPage);
    });
}
