import type { Db } from '../../db/knex.js';

/**
 * The registry's current version: triggers log every committed change to namespaces, resources,
 * institutions and locations in registry_changes, so max(version) (an index probe, microseconds) moves on
 * every write. Versions are taken before commit, so a write can become visible after a later one without
 * moving the maximum: the caches keyed by it also expire after a few seconds to bound that rare staleness.
 */
export async function readRegistryVersion(db: Db): Promise<number | null> {
  const row = (await db('registryChanges').max('version as version').first()) as { version: number | null } | undefined;
  return row?.version ?? null;
}

/** How long a cached count or answer is reused while the version stays the same. */
export const VERSIONED_CACHE_TTL_MS = 10_000;
