/**
 * The SPARQL endpoint over the real identifiers.org registry: its threads load the whole build's RDF and
 * snapshot, and the owl:sameAs links of every namespace's sample identifier are exactly the provider URLs
 * the resolver resolves it to.
 */
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { resolveCompactId } from '../../src/core/resolve.js';
import { asIri } from '../../src/core/same-as-links.js';
import { createRegistryApp } from '../../src/registry/app.js';
import { SparqlPool } from '../../src/registry/sparql/sparql-pool.js';
import { loadRegistry } from '../../src/resolver/snapshot-loader.js';
import { REGISTRY_URL, RESOLVER_URL, startStack, type AreaStack } from '../support/areas.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';

const datasetFile = registryDataset();

interface DatasetNamespace {
  prefix: string;
  sampleId: string;
}

interface JsonResults {
  results: { bindings: Record<string, { value: string }>[] };
}

// What an IRIREF may not hold; a sample id with one of these cannot be written as an IRI in a query.
const NOT_IN_IRI = /[\s<>"{}|^`\\]/;
const CHUNK = 200;

describeRequiring([datasetFile], 'the SPARQL endpoint over the real registry', () => {
  let t: AreaStack;
  let pool: SparqlPool;
  let app: RequestListener;
  let records: DatasetNamespace[];

  beforeAll(async () => {
    records = JSON.parse(readFileSync(datasetFile.file!, 'utf8')) as DatasetNamespace[];
    t = await startStack('sparql_real_data', { data: { file: datasetFile.file! }, dataset: 'built' });
    pool = new SparqlPool({
      threads: 1,
      timeoutMs: 30_000,
      perClient: 2,
      maxResultBytes: 50 * 1024 * 1024,
      maxLinkedIris: CHUNK,
      publicResolverUrl: RESOLVER_URL,
      publicRegistryUrl: REGISTRY_URL,
    });
    app = createRegistryApp({ config: t.config, db: t.db, redis: t.redis, logger: t.logger, sparql: pool }).callback();
  }, 180_000);

  afterAll(async () => {
    await pool?.close();
    await t?.close();
  });

  const select = async (query: string): Promise<JsonResults['results']['bindings']> => {
    const res = await request(app).post('/sparql').set('Content-Type', 'application/sparql-query').send(query);
    expect(res.status).toBe(200);
    return (JSON.parse(res.text) as JsonResults).results.bindings;
  };

  it('holds every namespace', async () => {
    const started = performance.now();
    const rows = await select('SELECT (COUNT(?ns) AS ?n) WHERE { ?ns a <http://purl.org/dc/dcmitype/Dataset> }');
    console.info(`SPARQL: first query (the thread loading the real registry's RDF) answered in ${Math.round(performance.now() - started)} ms`);
    expect(Number(rows[0]!.n!.value)).toBe(records.length);
  }, 120_000);

  it("links each namespace's sample identifier to the provider URLs the resolver resolves it to", async () => {
    const { snapshot } = await loadRegistry(t.db);
    const expected = new Map<string, string[]>();
    for (const ns of records) {
      const curie = `${ns.prefix}:${ns.sampleId}`;
      // The resolver never sees a fragment or a query, and reads its path percent-decoded.
      if (NOT_IN_IRI.test(curie) || /[#?]/.test(curie)) continue;
      const resolution = resolveCompactId(decodeURIComponent(curie), snapshot, { publicRegistryUrl: REGISTRY_URL });
      if (resolution.kind !== 'resolved' || resolution.namespace === undefined) continue;
      // As IRIs ([ percent-encoded), each once (two providers may share a URL).
      expected.set(`https://identifiers.org/${curie}`, [...new Set(resolution.resolvedResources.map((r) => asIri(r.compactIdentifierResolvedUrl)))].sort());
    }
    expect(expected.size).toBeGreaterThan(records.length * 0.9);
    const uris = [...expected.keys()];
    const found = new Map<string, string[]>();
    for (let at = 0; at < uris.length; at += CHUNK) {
      const values = uris.slice(at, at + CHUNK).map((uri) => `<${uri}>`).join(' ');
      for (const row of await select(`SELECT ?id ?url WHERE { VALUES ?id { ${values} } ?id <http://www.w3.org/2002/07/owl#sameAs> ?url }`)) {
        found.set(row.id!.value, [...(found.get(row.id!.value) ?? []), row.url!.value]);
      }
    }
    const wrong = uris.filter((uri) => JSON.stringify((found.get(uri) ?? []).sort()) !== JSON.stringify(expected.get(uri)));
    expect(wrong).toEqual([]);
  }, 120_000);

  it('links a provider URL back to its compact identifier', async () => {
    const rows = await select(
      'SELECT ?id WHERE { <https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606> <http://www.w3.org/2002/07/owl#sameAs> ?id }',
    );
    expect(rows.map((row) => row.id!.value)).toContain('https://identifiers.org/taxonomy:9606');
  }, 60_000);
});
