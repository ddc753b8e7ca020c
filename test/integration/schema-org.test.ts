import { readFileSync } from 'node:fs';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { SAMPLE_REGISTRY_FILE } from '../../src/db/seed-sample.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { validateNamespaces } from '../../src/importer/read-dataset.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { createRegistryApp } from '../../src/registry/app.js';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../support/test-database.js';

describe('schema.org metadata', () => {
  let t: TestDatabase;
  let app: ReturnType<ReturnType<typeof createRegistryApp>['callback']>;
  const redis = createProducerRedis(TEST_REDIS_URL);

  beforeAll(async () => {
    t = await createTestDatabase('schema_org');
    await importRegistry(t.db, validateNamespaces(JSON.parse(readFileSync(SAMPLE_REGISTRY_FILE, 'utf8'))), {});
    const config = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_RESOLVER_URL: 'https://resolver.test', PUBLIC_REGISTRY_URL: 'https://registry.test' });
    app = createRegistryApp({ config, db: t.db, redis, logger: createLogger('silent', 'test') }).callback();
  });
  afterAll(async () => {
    redis.disconnect();
    await t.drop();
  });

  it('describes the platform as a DataCatalog pointing at this deployment', async () => {
    const res = await request(app).get('/schemaOrgApi/getMetadataForPlatform');
    expect(res.status).toBe(200);
    expect(res.body['@context']).toBe('http://schema.org');
    expect(res.body['@type']).toBe('DataCatalog');
    expect(res.body.url).toBe('https://resolver.test/');
    expect(Object.keys(res.body)).toEqual(['@context', '@type', 'name', 'description', 'url', 'keywords', 'provider', 'license', 'publication', 'alternateName']);
  });

  it('describes a namespace as a Dataset found by prefix in any case, or by id', async () => {
    const byPrefix = await request(app).get('/schemaOrgApi/getMetadataForNamespacePrefix/Taxonomy');
    expect(byPrefix.status).toBe(200);
    expect(byPrefix.body.dataset).toMatchObject({ '@type': 'Dataset', url: 'https://registry.test/registry/taxonomy', '@id': 'https://registry.test/registry/taxonomy' });
    expect(byPrefix.body.dataset.keywords).toBe('registry,life sciences,compact identifier, taxonomy');
    const { id } = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first('id')) as { id: number };
    const byId = await request(app).get(`/schemaOrgApi/getMetadataForNamespace/${id}`);
    expect(byId.body).toEqual(byPrefix.body);
  });

  it('answers 404 in the envelope for an unknown namespace', async () => {
    const res = await request(app).get('/schemaOrgApi/getMetadataForNamespacePrefix/nope');
    expect(res.status).toBe(404);
    expect(res.body.errorMessage).toMatch(/'nope'.*DOES NOT exist/);
    expect((await request(app).get('/schemaOrgApi/getMetadataForNamespace/abc')).status).toBe(404);
    expect((await request(app).get('/schemaOrgApi/getMetadataForNamespace/999999999')).status).toBe(404);
  });
});
