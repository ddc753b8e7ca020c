import { readFileSync } from 'node:fs';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { ensureDatabase } from '../../src/db/ensure-database.js';
import { createDb, migrateToLatest } from '../../src/db/knex.js';
import { SAMPLE_REGISTRY_FILE } from '../../src/importer/seed-sample.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { validateNamespaces } from '../../src/importer/read-dataset.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { createRegistryApp } from '../../src/registry/app.js';
import { createResolverApp } from '../../src/resolver/app.js';
import { SnapshotStore } from '../../src/resolver/snapshot-store.js';
import { startOwnPostgres, type OwnPostgres } from '../support/postgres-cluster.js';
import { waitFor } from '../support/processes.js';
import { describeRequiring, postgresServerBinaries } from '../support/requirements.js';
import { TEST_REDIS_URL } from '../support/test-database.js';

// Fault drill: a Postgres cluster of this test's own is stopped under a running resolver.
describeRequiring([postgresServerBinaries()], 'when Postgres goes away', () => {
  let pg: OwnPostgres;
  let store: SnapshotStore;
  const logger = createLogger('silent', 'test');
  const redis = createProducerRedis(TEST_REDIS_URL);
  let db: ReturnType<typeof createDb>;
  let resolver: ReturnType<ReturnType<typeof createResolverApp>['callback']>;
  let registry: ReturnType<ReturnType<typeof createRegistryApp>['callback']>;

  beforeAll(async () => {
    pg = await startOwnPostgres();
    const url = pg.url('drill');
    await ensureDatabase(url);
    db = createDb(url, { max: 3 });
    await migrateToLatest(db);
    await importRegistry(db, validateNamespaces(JSON.parse(readFileSync(SAMPLE_REGISTRY_FILE, 'utf8'))), {});
    const config = loadConfig({ DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'silent' });
    store = new SnapshotStore({ db, databaseUrl: url, logger, checkIntervalMs: 300 });
    await store.start();
    resolver = createResolverApp({ config, db, redis, logger, registry: store }).callback();
    registry = createRegistryApp({ config, db, redis, logger }).callback();
  }, 60000);

  afterAll(async () => {
    await store?.stop();
    await db?.destroy();
    redis.disconnect();
    pg?.destroy();
  });

  it('keeps resolving from its snapshot, reports degraded with the reason, and the registry area is unavailable', async () => {
    expect((await request(resolver).get('/health/ready')).body.payload.status).toBe('ok');
    pg.stop();

    const resolved = await request(resolver).get('/taxonomy:9606');
    expect(resolved.status).toBe(200);
    expect(resolved.body.payload.resolvedResources.length).toBeGreaterThan(0);

    const ready = await request(resolver).get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.payload.status).toBe('degraded');
    expect(ready.body.payload.reason).toMatch(/postgres/i);

    const registryReady = await request(registry).get('/health/ready');
    expect(registryReady.status).toBe(503);
    expect(registryReady.body.errorMessage).toMatch(/postgres/);
  }, 30000);

  it('picks up changes made while it was away once Postgres is back', async () => {
    pg.start();
    await db.raw("UPDATE resources SET url_pattern = 'https://example.org/tax/{$id}' WHERE id = (SELECT min(r.id) FROM resources r JOIN namespaces n ON n.id = r.namespace_id WHERE n.prefix = 'taxonomy')");
    const url = await waitFor(
      async () => {
        const res = await request(resolver).get('/taxonomy:9606');
        const urls = (res.body.payload.resolvedResources as { compactIdentifierResolvedUrl: string }[]).map((r) => r.compactIdentifierResolvedUrl);
        return urls.find((u) => u.startsWith('https://example.org/tax/'));
      },
      15000,
      'the change to show',
    );
    expect(url).toBe('https://example.org/tax/9606');
    await waitFor(async () => ((await request(resolver).get('/health/ready')).body.payload.status === 'ok' ? true : undefined), 10000, 'ready again');
  }, 30000);
});
