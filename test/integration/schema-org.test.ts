import type { RequestListener } from 'node:http';
import request from 'supertest';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { expandSchemaOrg, requestedContextUrls } from '../support/schema-org-context.js';

const SCHEMA = 'https://schema.org/';
const JSON_LD = 'application/ld+json; charset=utf-8';

describe('schema.org metadata', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;
  beforeAll(async () => ({ app } = t = await startRegistry('schema_org')));
  afterAll(() => t.close());

  it('describes the platform as a DataCatalog pointing at this deployment', async () => {
    const res = await request(app).get('/schemaOrgApi/getMetadataForPlatform');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(JSON_LD);
    expect(res.body['@context']).toBe('https://schema.org');
    expect(res.body['@type']).toBe('DataCatalog');
    expect(res.body.url).toBe('https://resolver.test/');
    expect(Object.keys(res.body)).toEqual(['@context', '@id', '@type', 'name', 'description', 'url', 'keywords', 'provider', 'license', 'publication', 'alternateName']);
  });

  it('expands the platform answer to a schema.org DataCatalog node named by the registry home', async () => {
    const res = await request(app).get('/schemaOrgApi/getMetadataForPlatform');
    const graph = await expandSchemaOrg(res.body);
    expect(graph).toHaveLength(1);
    const catalog = graph[0]!;
    expect(catalog['@id']).toBe('https://registry.test/');
    expect(catalog['@type']).toEqual([`${SCHEMA}DataCatalog`]);
    // Expansion sorts the keys; safe mode has already failed on any term the context does not map.
    expect(Object.keys(catalog).sort()).toEqual(
      ['@id', '@type', ...['name', 'description', 'url', 'keywords', 'provider', 'license', 'publication', 'alternateName'].map((p) => SCHEMA + p)].sort(),
    );
    expect(catalog[`${SCHEMA}name`]).toEqual([{ '@value': 'Compact Identifier Registry' }]);
    expect(catalog[`${SCHEMA}url`]).toEqual([{ '@id': 'https://resolver.test/' }]);
    expect(catalog[`${SCHEMA}provider`]).toEqual([
      { '@type': [`${SCHEMA}Organization`], [`${SCHEMA}name`]: [{ '@value': 'Compact Identifier Registry operators' }], [`${SCHEMA}url`]: [{ '@id': 'https://registry.test/' }] },
    ]);
    expect(catalog[`${SCHEMA}license`]).toMatchObject([{ '@type': [`${SCHEMA}CreativeWork`], [`${SCHEMA}url`]: [{ '@id': 'https://creativecommons.org/licenses/by/4.0/' }] }]);
    const publications = catalog[`${SCHEMA}publication`] as Array<Record<string, unknown>>;
    expect(publications.map((p) => p['@type'])).toEqual([[`${SCHEMA}PublicationEvent`], [`${SCHEMA}PublicationEvent`]]);
    expect(publications[1]![`${SCHEMA}url`]).toEqual([{ '@id': 'https://resolver.test/pubmed:22140103' }]);
    expect(catalog[`${SCHEMA}alternateName`]).toEqual([{ '@value': 'Compact Identifier Central Registry' }]);
    expect([...new Set(requestedContextUrls)]).toEqual(['https://schema.org']);
  });

  it('expands a namespace answer to the same catalog holding a schema.org Dataset node named by its registry page', async () => {
    const res = await request(app).get('/schemaOrgApi/getMetadataForNamespacePrefix/taxonomy');
    expect(res.headers['content-type']).toBe(JSON_LD);
    const graph = await expandSchemaOrg(res.body);
    expect(graph).toHaveLength(1);
    const catalog = graph[0]!;
    expect(catalog['@id']).toBe('https://registry.test/');
    expect(catalog['@type']).toEqual([`${SCHEMA}DataCatalog`]);
    const { name, description } = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first('name', 'description')) as { name: string; description: string };
    expect(catalog[`${SCHEMA}dataset`]).toEqual([
      {
        '@id': 'https://registry.test/registry/taxonomy',
        '@type': [`${SCHEMA}Dataset`],
        [`${SCHEMA}name`]: [{ '@value': name }],
        [`${SCHEMA}description`]: [{ '@value': description }],
        [`${SCHEMA}url`]: [{ '@id': 'https://registry.test/registry/taxonomy' }],
        [`${SCHEMA}keywords`]: [{ '@value': 'registry,life sciences,compact identifier, taxonomy' }],
      },
    ]);
  });

  it('describes a namespace as a Dataset found by prefix in any case, or by id', async () => {
    const byPrefix = await request(app).get('/schemaOrgApi/getMetadataForNamespacePrefix/Taxonomy');
    expect(byPrefix.status).toBe(200);
    expect(byPrefix.body.dataset).toMatchObject({ '@type': 'Dataset', url: 'https://registry.test/registry/taxonomy', '@id': 'https://registry.test/registry/taxonomy' });
    expect(byPrefix.body.dataset.keywords).toBe('registry,life sciences,compact identifier, taxonomy');
    const { id } = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first('id')) as { id: number };
    const byId = await request(app).get(`/schemaOrgApi/getMetadataForNamespace/${id}`);
    expect(byId.headers['content-type']).toBe(JSON_LD);
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
