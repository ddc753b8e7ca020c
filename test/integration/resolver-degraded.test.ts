import type { RequestListener } from 'node:http';
import request from 'supertest';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { startOwnPostgres, type OwnPostgres } from '../support/postgres-cluster.js';
import { describeRequiring, postgresServerBinaries } from '../support/requirements.js';
import { waitFor } from '../support/wait.js';

// Fault drill: a Postgres cluster of this test's own is stopped under a running resolver.
describeRequiring([postgresServerBinaries()], 'when Postgres goes away', () => {
  let pg: OwnPostgres;
  let r: ResolverUnderTest;
  let db: ResolverUnderTest['db'];
  let resolver: RequestListener;
  let registry: RequestListener;

  beforeAll(async () => {
    pg = await startOwnPostgres();
    r = await startResolver('drill', { postgresUrl: pg.url('postgres'), checkIntervalMs: 300 });
    db = r.db;
    resolver = r.app;
    registry = r.registryApp().callback();
  }, 60000);

  afterAll(async () => {
    await r?.close();
    pg?.destroy();
  });

  it('keeps resolving from its snapshot, reports degraded with the reason, and the registry area is unavailable', async () => {
    expect((await request(resolver).get('/health/ready')).body.payload.status).toBe('ok');
    pg.stop();

    const resolved = await request(resolver).get('/taxonomy:9606');
    expect(resolved.status).toBe(200);
    expect(resolved.body.payload.resolvedResources.length).toBeGreaterThan(0);

    // Readiness tells the dependencies as they answered at most a second ago.
    const ready = await waitFor(
      async () => {
        const res = await request(resolver).get('/health/ready');
        return res.body.payload.status === 'ok' ? undefined : res;
      },
      { timeoutMs: 5000, what: 'readiness telling of the lost Postgres' },
    );
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
      { timeoutMs: 15000, what: 'the change to show' },
    );
    expect(url).toBe('https://example.org/tax/9606');
    await waitFor(async () => (await request(resolver).get('/health/ready')).body.payload.status === 'ok', { timeoutMs: 10000, what: 'ready again' });
  }, 30000);
});
