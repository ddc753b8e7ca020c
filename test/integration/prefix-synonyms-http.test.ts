/**
 * Prefix synonyms (issue 15 item 1) through both areas over one database: resolution and the browser's
 * redirect through a synonym, a curator's PATCH reaching the resolver (how soon is bench:resolver's "change visible" figure), the namespace's HAL item,
 * the extension export with its ETag, the registry search and pages, and the MCP tools.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import request from 'supertest';
import { importSynonyms, validateSynonymFile } from '../../src/importer/import-synonyms.js';
import { SAMPLE_SYNONYMS_FILE } from '../../src/importer/seed-sample.js';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { waitFor } from '../support/wait.js';

let both: BothAreas;
let resolver: ReturnType<BothAreas['resolver']['koa']['callback']>;
let registry: ReturnType<BothAreas['registry']['koa']['callback']>;
let taxonomyId: number;

beforeAll(async () => {
  both = await startBothAreas('prefix_synonyms_http');
  resolver = both.resolver.koa.callback();
  registry = both.registry.koa.callback();
  await importSynonyms(both.db, validateSynonymFile(JSON.parse(readFileSync(SAMPLE_SYNONYMS_FILE, 'utf8'))));
  taxonomyId = Number((await both.db('namespaces').first('id').where({ prefix: 'taxonomy' }))!.id);
  // The resolver hears the import's notification and reloads the namespaces it touched.
  await waitFor(async () => (await request(resolver).get('/ncbitaxon:9606')).status === 200, { timeoutMs: 5000, what: 'the imported synonyms reaching the resolver' });
});
afterAll(() => both?.close());

const auth = () => `Bearer ${both.curatorToken}`;

describe('resolution through a synonym', () => {
  it('answers the resources of the canonical prefix, the prefix in parsedCompactIdentifier and the synonym as written last', async () => {
    const canonical = await request(resolver).get('/taxonomy:9606');
    const viaSynonym = await request(resolver).get('/NCBITaxon:9606');
    expect(viaSynonym.status).toBe(200);
    expect(viaSynonym.body.payload.resolvedResources).toEqual(canonical.body.payload.resolvedResources);
    expect(viaSynonym.body.payload.parsedCompactIdentifier).toEqual({ ...canonical.body.payload.parsedCompactIdentifier, rawRequest: 'NCBITaxon:9606' });
    expect(Object.keys(viaSynonym.body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier', 'prefixSynonym']);
    expect(viaSynonym.body.payload.prefixSynonym).toBe('NCBITaxon');
    // A request written with the prefix is answered exactly as before: no new field.
    expect(Object.keys(canonical.body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier']);
  });

  it('redirects a browser where the canonical prefix goes', async () => {
    const canonical = await request(resolver).get('/taxonomy:9606').set('Accept', 'text/html');
    const viaSynonym = await request(resolver).get('/taxon:9606').set('Accept', 'text/html');
    expect(canonical.status).toBe(302);
    expect(viaSynonym.status).toBe(302);
    expect(viaSynonym.headers.location).toBe(canonical.headers.location);
  });

  it('answers a bare synonym with its namespace page, and an unknown name as before', async () => {
    const page = await request(resolver).get('/pmid');
    expect(page.status).toBe(200);
    expect(page.body.payload.resolvedResources[0].compactIdentifierResolvedUrl).toMatch(/\/registry\/pubmed$/);
    expect(page.body.payload.prefixSynonym).toBe('pmid');
    expect((await request(resolver).get('/notasynonym:9606')).status).toBe(400);
  });
});

describe('reverse lookup', () => {
  const byPrefix = (url: string) =>
    request(resolver).post('/reverse/byPrefix').send({ apiVersion: '1.0', payload: { url } });

  it('reads a resolver URL written with a synonym as its canonical compact identifier', async () => {
    const answer = await byPrefix('https://identifiers.org/NCBITaxon:9606');
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toEqual({
      prefix: 'taxonomy',
      possible_resolver_url: 'https://resolver.test/taxonomy:9606',
      possible_resolver_curie: 'taxonomy:9606',
      lui_pattern_match: true,
      similarity_score: 100,
    });
    const own = await byPrefix('https://resolver.test/gene_ontology:0006915?redirect=true');
    expect(own.body.payload.possible_resolver_curie).toBe('GO:0006915');
    const mismatch = await byPrefix('https://identifiers.org/taxon:not-a-number');
    expect(mismatch.body.payload).toMatchObject({ prefix: 'taxonomy', possible_resolver_curie: null, lui_pattern_match: false });
    const batch = await request(resolver).post('/reverse/batch').send({ apiVersion: '1.0', payload: { requests: [{ url: 'http://www.identifiers.org/pmid:16333295' }] } });
    expect(batch.body.payload.results[0].match.possible_resolver_curie).toBe('pubmed:16333295');
  });

  it('still matches provider URLs as before', async () => {
    const answer = await byPrefix('https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606');
    expect(answer.body.payload.possible_resolver_curie).toBe('taxonomy:9606');
  });

  it("is what the registry's reverse box answers too", async () => {
    const page = await request(registry).get('/reverse-lookup?url=' + encodeURIComponent('https://identifiers.org/ncbitaxon:9606')).set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('taxonomy:9606');
  });
});

describe('curators', () => {
  it("show a PATCH of a namespace's synonyms in the resolver, and in its HAL item, sorted, last before _links", async () => {
    const patched = await request(registry)
      .patch(`/restApi/namespaces/${taxonomyId}`)
      .set('Authorization', auth())
      .set('Accept', 'application/hal+json')
      .send({ synonyms: ['taxon', 'NCBITaxon', 'species_taxon', 'ncbitaxon'] });
    expect(patched.status).toBe(200);
    expect(patched.body.synonyms).toEqual(['NCBITaxon', 'species_taxon', 'taxon']);
    await waitFor(async () => (await request(resolver).get('/species_taxon:9606')).status === 200, { timeoutMs: 5000, what: 'the new synonym resolving' });
    expect((await request(resolver).get('/ncbi.taxon:9606')).status).toBe(400);

    const item = await request(registry).get(`/restApi/namespaces/${taxonomyId}`);
    const keys = Object.keys(item.body);
    expect(keys.slice(-2)).toEqual(['synonyms', '_links']);
    expect(item.body.synonyms).toEqual(['NCBITaxon', 'species_taxon', 'taxon']);
    const go = await request(registry).get('/restApi/namespaces/search/findByPrefix?prefix=go');
    expect(go.body.synonyms).toEqual(['gene_ontology', 'go.term']);
    // findByPrefix stays exact, as the reference's.
    expect((await request(registry).get('/restApi/namespaces/search/findByPrefix?prefix=taxon')).status).toBe(404);
    const page = await request(registry).get('/restApi/namespaces?size=100');
    expect(page.body._embedded.namespaces.every((n: { synonyms?: unknown }) => Array.isArray(n.synonyms))).toBe(true);
  });

  it("refuses a synonym that is another namespace's prefix or synonym, naming it, and changes nothing", async () => {
    const prefixClash = await request(registry).patch(`/restApi/namespaces/${taxonomyId}`).set('Authorization', auth()).send({ synonyms: ['taxon', 'CHEBI'] });
    expect(prefixClash.status).toBe(409);
    expect(prefixClash.text).toMatch(/'CHEBI' is the prefix of namespace 'chebi'/);
    const synonymClash = await request(registry).patch(`/restApi/namespaces/${taxonomyId}`).set('Authorization', auth()).send({ synonyms: ['PMID'] });
    expect(synonymClash.status).toBe(409);
    const bad = await request(registry).patch(`/restApi/namespaces/${taxonomyId}`).set('Authorization', auth()).send({ synonyms: ['tax:on'] });
    expect(bad.status).toBe(400);
    for (const [synonym, character] of [['tax"on', `'"'`], ['<taxon>', "'<'"], ['tax|on', "'|'"]] as const) {
      const refused = await request(registry).patch(`/restApi/namespaces/${taxonomyId}`).set('Authorization', auth()).send({ synonyms: ['taxon', synonym] });
      expect(refused.status).toBe(400);
      expect(refused.body.errorMessage).toContain(`holds ${character}: a synonym is made of letters, digits, dots, underscores and hyphens`);
    }
    const item = await request(registry).get(`/restApi/namespaces/${taxonomyId}`);
    expect(item.body.synonyms).toEqual(['NCBITaxon', 'species_taxon', 'taxon']);
  });

  it('refuses a new prefix that is a synonym', async () => {
    const renamed = await request(registry).patch('/restApi/namespaces/' + String((await both.db('namespaces').first('id').where({ prefix: 'chebi' }))!.id))
      .set('Authorization', auth())
      .send({ prefix: 'pmid' });
    expect(renamed.status).toBe(409);
    expect(renamed.text).toMatch(/'pmid' is a synonym of namespace 'pubmed'; it cannot be a prefix/);
  });
});

describe('the extension export', () => {
  it('lists every namespace with synonyms from Postgres, with an ETag a client revalidates with', async () => {
    const answer = await request(registry).get('/resolutionApi/getPrefixSynonyms');
    expect(answer.status).toBe(200);
    expect(answer.body.taxonomy).toEqual(['NCBITaxon', 'species_taxon', 'taxon']);
    expect(Object.keys(answer.body)).toEqual([...Object.keys(answer.body)].sort());
    expect(answer.body.chebi).toEqual(['chebi.compound']);
    const again = await request(registry).get('/resolutionApi/getPrefixSynonyms').set('If-None-Match', answer.headers.etag!);
    expect(again.status).toBe(304);
    await both.db('namespace_synonyms').insert({ namespaceId: taxonomyId, synonym: 'txid' });
    const changed = await request(registry).get('/resolutionApi/getPrefixSynonyms').set('If-None-Match', answer.headers.etag!);
    expect(changed.status).toBe(200);
    expect(changed.body.taxonomy).toContain('txid');
  });

  it('leaves the reference dataset as it was', async () => {
    const dataset = await request(registry).get('/resolutionApi/getResolverDataset');
    const taxonomy = dataset.body.payload.namespaces.find((n: { prefix: string }) => n.prefix === 'taxonomy');
    expect(taxonomy).not.toHaveProperty('synonyms');
  });
});

describe('search and pages', () => {
  it('finds a namespace by its synonym first in /registry/search', async () => {
    const found = await request(registry).get('/registry/search?q=pmid');
    expect(found.status).toBe(200);
    expect(found.body.results[0].prefix).toBe('pubmed');
    // A synonym's start ranks with the prefixes starting with the text.
    const starts = await request(registry).get('/registry/search?q=entre');
    expect(starts.body.results.map((r: { prefix: string }) => r.prefix)).toContain('ncbigene');
  });

  it("sends a synonym's registry page to its namespace's", async () => {
    const page = await request(registry).get('/registry/pmid').set('Accept', 'text/html');
    expect(page.status).toBe(301);
    expect(page.headers.location).toBe('/registry/pubmed');
    const pubmed = await request(registry).get('/registry/pubmed').set('Accept', 'text/html');
    expect(pubmed.text).toMatch(/Synonyms/);
    expect(pubmed.text).toMatch(/pmid/);
  });
});

describe('MCP tools', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'synonyms-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${both.resolver.port}/mcp`)));
  });
  afterAll(() => client?.close());

  it('describeNamespace takes a synonym and lists the synonyms; searchRegistry finds a namespace by one', async () => {
    const described = (await client.callTool({ name: 'describeNamespace', arguments: { prefix: 'PMID' } })) as CallToolResult;
    expect(described.isError ?? false).toBe(false);
    const ns = described.structuredContent as { prefix: string; synonyms: string[] };
    expect(ns.prefix).toBe('pubmed');
    expect(ns.synonyms).toEqual(['pmid']);
    const found = (await client.callTool({ name: 'searchRegistry', arguments: { query: 'entrez' } })) as CallToolResult;
    expect((found.structuredContent as { namespaces: { prefix: string }[] }).namespaces[0]!.prefix).toBe('ncbigene');
  });
});
