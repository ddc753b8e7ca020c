import type { Db } from '../../db/knex.js';
import type { RegistryVersionSource } from '../model/registry-version.js';
import { VersionedCache } from '../model/versioned-cache.js';
import { platformMetadata, type SchemaOrgUrls } from '../model/schema-org.presenter.js';
import { readEbiDataset } from './ebi-dataset.service.js';
import { writeEbiDataset } from './ebi-search.presenter.js';

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
