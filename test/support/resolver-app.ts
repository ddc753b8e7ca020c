/**
 * A resolver area over a real, migrated test database loaded with a dataset file (the sample registry by
 * default) and kept current by a started SnapshotStore, as `npm run start:resolver` builds it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RequestListener } from 'node:http';
import type { Redis } from 'ioredis';
import { loadConfig, type Config } from '../../src/config.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { validateNamespaces } from '../../src/importer/read-dataset.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { createResolverApp } from '../../src/resolver/app.js';
import { SnapshotStore } from '../../src/resolver/snapshot-store.js';
import { ROOT } from './processes.js';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from './test-database.js';

export const RESOLVER_URL = 'https://resolver.test';
export const REGISTRY_URL = 'https://registry.test';
export const SAMPLE_REGISTRY = path.join(ROOT, 'seeds/sample-registry.json');

export interface ResolverUnderTest {
  t: TestDatabase;
  store: SnapshotStore;
  config: Readonly<Config>;
  redis: Redis;
  /** A request listener for supertest. */
  app: RequestListener;
  close: () => Promise<void>;
}

export async function startResolver(
  label: string,
  options: { dataset?: string; checkIntervalMs?: number } = {},
): Promise<ResolverUnderTest> {
  const t = await createTestDatabase(label);
  const namespaces = validateNamespaces(JSON.parse(await readFile(options.dataset ?? SAMPLE_REGISTRY, 'utf8')));
  await importRegistry(t.db, namespaces, {});
  const config = loadConfig({
    DATABASE_URL: t.url,
    REDIS_URL: TEST_REDIS_URL,
    LOG_LEVEL: 'silent',
    PUBLIC_RESOLVER_URL: RESOLVER_URL,
    PUBLIC_REGISTRY_URL: REGISTRY_URL,
  });
  const logger = createLogger('silent', 'test');
  const store = new SnapshotStore({ db: t.db, databaseUrl: t.url, logger, checkIntervalMs: options.checkIntervalMs ?? 1000 });
  await store.start();
  const redis = createProducerRedis(TEST_REDIS_URL);
  const app = createResolverApp({ config, db: t.db, redis, logger, registry: store }).callback();
  return {
    t,
    store,
    config,
    redis,
    app,
    close: async () => {
      await store.stop();
      redis.disconnect();
      await t.drop();
    },
  };
}

/** Polls `probe` every `everyMs` until it returns a value, or fails after `timeoutMs` saying what was awaited. */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
