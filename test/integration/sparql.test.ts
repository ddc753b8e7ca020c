/**
 * The SPARQL endpoint (/sparql) as a SPARQL 1.1 Protocol client sees it: plain protocol requests (GET with
 * ?query=, POST as application/sparql-query and as a form) over the sample registry's dataset build, the
 * owl:sameAs links both ways, the answer formats, and the bounds (query length, time limit, per-client cap,
 * read-only) with the area still answering while a query runs into its time limit.
 */
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import { Parser } from 'n3';
import request from 'supertest';
import { createRegistryApp } from '../../src/registry/app.js';
import { SparqlPool } from '../../src/registry/sparql/sparql-pool.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { REGISTRY_URL, RESOLVER_URL, startStack, type AreaStack } from '../support/areas.js';
import { waitFor } from '../support/wait.js';

const PREFIXES = `
PREFIX owl: <http://www.w3.org/2002/07/owl#>
PREFIX idot: <http://identifiers.org/idot/>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX dctypes: <http://purl.org/dc/dcmitype/>
`;
// Three unrestricted patterns: every triple with every pair of triples, counted without being kept.
const CROSS_JOIN = 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }';
const TIME_LIMIT_MS = 4000;
const MAX_QUERY_LENGTH = 3000;

interface JsonResults {
  head: { vars: string[] };
  results: { bindings: Record<string, { type: string; value: string }>[] };
}

const sample = JSON.parse(readFileSync(path.join(process.cwd(), 'seeds/sample-registry.json'), 'utf8')) as { prefix: string; resources: unknown[] }[];

describe('the SPARQL endpoint', () => {
  let t: AreaStack;
  let pool: SparqlPool;
  let app: RequestListener;

  beforeAll(async () => {
    t = await startStack('sparql', { dataset: 'built' });
    pool = new SparqlPool({
      threads: 2,
      timeoutMs: TIME_LIMIT_MS,
      perClient: 2,
      maxResultBytes: 50_000,
      publicResolverUrl: RESOLVER_URL,
      publicRegistryUrl: REGISTRY_URL,
    });
    const config = { ...t.config, SPARQL_MAX_QUERY_LENGTH: MAX_QUERY_LENGTH };
    app = createRegistryApp({ config, db: t.db, redis: t.redis, logger: t.logger, sparql: pool }).callback();
  });

  afterAll(async () => {
    await pool?.close();
    await t?.close();
  });

  const select = async (query: string): Promise<JsonResults['results']['bindings']> => {
    const res = await request(app).get('/sparql').query({ query: PREFIXES + query }).set('Accept', 'application/sparql-results+json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/sparql-results\+json/);
    return (JSON.parse(res.text) as JsonResults).results.bindings;
  };

  describe('the registry as RDF', () => {
    it('lists the namespaces whose prefix starts with given letters', async () => {
      const rows = await select('SELECT ?prefix WHERE { ?ns idot:preferredPrefix ?prefix FILTER(STRSTARTS(?prefix, "pub")) } ORDER BY ?prefix');
      expect(rows.map((row) => row.prefix!.value)).toEqual(sample.map((ns) => ns.prefix).filter((prefix) => prefix.startsWith('pub')).sort());
    });

    it('counts the namespaces', async () => {
      const rows = await select('SELECT (COUNT(?ns) AS ?n) WHERE { ?ns a dctypes:Dataset }');
      expect(Number(rows[0]!.n!.value)).toBe(sample.length);
    });

    it("lists a namespace's resources with their URL patterns", async () => {
      const rows = await select(
        'SELECT ?pattern WHERE { ?ns idot:preferredPrefix "taxonomy" ; idot:accessPattern ?r . ?r idot:accessIdentifierPattern ?pattern }',
      );
      expect(rows).toHaveLength(sample.find((ns) => ns.prefix === 'taxonomy')!.resources.length);
      expect(rows.map((row) => row.pattern!.value)).toContain('https://purl.uniprot.org/taxonomy/{$id}');
    });

    it('answers ASK', async () => {
      const res = await request(app).get('/sparql').query({ query: `${PREFIXES} ASK { ?ns idot:preferredPrefix "chebi" }` });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ head: {}, boolean: true });
    });
  });

  describe('owl:sameAs links', () => {
    it('links an identifiers.org URI to each provider URL of its identifier', async () => {
      const rows = await select('SELECT ?url WHERE { <https://identifiers.org/taxonomy:9606> owl:sameAs ?url }');
      const urls = rows.map((row) => row.url!.value);
      expect(urls).toContain('https://purl.uniprot.org/taxonomy/9606');
      expect(urls).toContain('https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606');
      expect(urls).toHaveLength(sample.find((ns) => ns.prefix === 'taxonomy')!.resources.length);
    });

    it("links this resolver's own URI, and an http identifiers.org URI, alike", async () => {
      for (const uri of [`${RESOLVER_URL}/taxonomy:9606`, 'http://identifiers.org/taxonomy:9606']) {
        const rows = await select(`SELECT ?url WHERE { <${uri}> owl:sameAs ?url }`);
        expect(rows.map((row) => row.url!.value)).toContain('https://purl.uniprot.org/taxonomy/9606');
      }
    });

    it("links a provider URL back to the identifier's resolver URIs", async () => {
      const rows = await select('SELECT ?id WHERE { <https://www.ncbi.nlm.nih.gov/gene/100010> owl:sameAs ?id }');
      expect(rows.map((row) => row.id!.value).sort()).toEqual(
        ['http://identifiers.org/ncbigene:100010', 'https://identifiers.org/ncbigene:100010', `${RESOLVER_URL}/ncbigene:100010`].sort(),
      );
    });

    it('joins a VALUES block of identifiers.org URIs with their providers, as a federated query does', async () => {
      const rows = await select(`
        SELECT ?id ?url WHERE {
          VALUES ?id { <https://identifiers.org/CHEBI:36927> <https://identifiers.org/pdb:2gc4> <https://identifiers.org/nonsense:1> }
          ?id owl:sameAs ?url
        }`);
      const byId = (id: string) => rows.filter((row) => row.id!.value === id).map((row) => row.url!.value);
      expect(byId('https://identifiers.org/CHEBI:36927')).toContain('https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927');
      expect(byId('https://identifiers.org/pdb:2gc4')).toContain('https://www.rcsb.org/structure/2gc4');
      expect(byId('https://identifiers.org/nonsense:1')).toEqual([]);
    });

    it('adds the links for the query that names them only', async () => {
      await select('SELECT ?url WHERE { <https://identifiers.org/taxonomy:9606> owl:sameAs ?url }');
      const rows = await select('SELECT (COUNT(*) AS ?n) WHERE { ?s owl:sameAs ?o FILTER(STRSTARTS(STR(?s), "https://identifiers.org/")) }');
      expect(rows[0]!.n!.value).toBe('0');
    });
  });

  describe('the protocol and its formats', () => {
    it('takes a POSTed application/sparql-query body and a POSTed form alike', async () => {
      const query = `${PREFIXES} SELECT ?prefix WHERE { ?ns idot:preferredPrefix ?prefix FILTER(?prefix = "go") }`;
      const direct = await request(app).post('/sparql').set('Content-Type', 'application/sparql-query').send(query);
      const form = await request(app).post('/sparql').type('form').send({ query });
      for (const res of [direct, form]) {
        expect(res.status).toBe(200);
        expect((JSON.parse(res.text) as JsonResults).results.bindings).toEqual([{ prefix: { type: 'literal', value: 'go' } }]);
      }
    });

    it('answers SPARQL XML results when asked for them', async () => {
      const res = await request(app)
        .get('/sparql')
        .query({ query: `${PREFIXES} SELECT ?prefix WHERE { ?ns idot:preferredPrefix ?prefix FILTER(?prefix = "go") }` })
        .set('Accept', 'application/sparql-results+xml');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/sparql-results\+xml/);
      expect(res.text).toContain('<sparql xmlns="http://www.w3.org/2005/sparql-results#">');
      expect(res.text).toMatch(/<binding name="prefix"><literal>go<\/literal><\/binding>/);
    });

    it('answers CONSTRUCT as Turtle that parses back, and as N-Triples when asked', async () => {
      const query = `${PREFIXES} CONSTRUCT { ?ns dcterms:title ?title } WHERE { ?ns idot:preferredPrefix "taxonomy" ; dcterms:title ?title }`;
      const turtle = await request(app).get('/sparql').query({ query }).set('Accept', 'text/turtle');
      expect(turtle.status).toBe(200);
      expect(turtle.headers['content-type']).toMatch(/^text\/turtle/);
      const quads = new Parser({ format: 'text/turtle' }).parse(turtle.text);
      expect(quads).toHaveLength(1);
      // The namespace's page, under the public registry URL the build was made with.
      expect(quads[0]!.subject.value).toMatch(/\/taxonomy$/);
      expect(quads[0]!.predicate.value).toBe('http://purl.org/dc/terms/title');

      const ntriples = await request(app).get('/sparql').query({ query }).set('Accept', 'application/n-triples');
      expect(ntriples.headers['content-type']).toMatch(/^application\/n-triples/);
      expect(new Parser({ format: 'application/n-triples' }).parse(ntriples.text)).toHaveLength(1);
    });

    it('answers DESCRIBE of a namespace as Turtle', async () => {
      const query = `${PREFIXES} DESCRIBE ?ns WHERE { ?ns idot:preferredPrefix "go" }`;
      const res = await request(app).get('/sparql').query({ query });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/turtle/);
      const quads = new Parser({ format: 'text/turtle' }).parse(res.text);
      expect(quads.some((q) => q.predicate.value === 'http://identifiers.org/idot/preferredPrefix' && q.object.value === 'go')).toBe(true);
    });

    it('is open to pages on any origin', async () => {
      const res = await request(app).get('/sparql').query({ query: 'ASK {}' }).set('Origin', 'https://elsewhere.example');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const preflight = await request(app)
        .options('/sparql')
        .set('Origin', 'https://elsewhere.example')
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'Content-Type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    });
  });

  describe('refusals', () => {
    it("answers a malformed query 400 with the parser's message", async () => {
      const res = await request(app).get('/sparql').query({ query: 'SELECT * WHERE { ?s ?p ' });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/^Malformed or unanswerable SPARQL query: error at 1:\d+/);
    });

    it('refuses SPARQL Update in every form, saying the endpoint is read-only', async () => {
      const update = 'PREFIX ex: <http://example.org/> INSERT DATA { ex:a ex:b ex:c }';
      const answers = [
        await request(app).get('/sparql').query({ query: update }),
        await request(app).get('/sparql').query({ update }),
        await request(app).post('/sparql').set('Content-Type', 'application/sparql-update').send(update),
        await request(app).post('/sparql').type('form').send({ update }),
      ];
      for (const res of answers) {
        expect(res.status).toBe(400);
        expect(res.body.errorMessage).toMatch(/read-only/);
      }
      const rows = await select('SELECT (COUNT(*) AS ?n) WHERE { <http://example.org/a> ?p ?o }');
      expect(rows[0]!.n!.value).toBe('0');
    });

    it('refuses a query longer than the limit: 414 in the URL, 413 in a body', async () => {
      const long = `SELECT * WHERE { ?s ?p ?o } # ${'x'.repeat(MAX_QUERY_LENGTH)}`;
      const get = await request(app).get('/sparql').query({ query: long });
      expect(get.status).toBe(414);
      expect(get.body.errorMessage).toMatch(`more than the limit of ${MAX_QUERY_LENGTH}`);
      const post = await request(app).post('/sparql').set('Content-Type', 'application/sparql-query').send(long);
      expect(post.status).toBe(413);
    });

    it('refuses an answer larger than the limit, saying how to narrow it', async () => {
      const res = await request(app).get('/sparql').query({ query: 'SELECT * WHERE { ?s ?p ?o }' });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/more than the limit of 50000; narrow the query or add a LIMIT/);
    });

    it('fetches nothing for SERVICE: a federated part is refused, not sent anywhere', async () => {
      const res = await request(app).get('/sparql').query({ query: 'SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }' });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/service .* is not supported/i);
    });

    it('refuses a request without a query', async () => {
      const res = await request(app).get('/sparql');
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/Send a SPARQL query/);
    });
  });

  describe('the time limit', () => {
    it('stops an expensive query with a clear 503 while other requests are answered meanwhile', async () => {
      let expensiveSettled = false;
      const expensive = request(app)
        .get('/sparql')
        .query({ query: CROSS_JOIN })
        .then((res) => {
          expensiveSettled = true;
          return res;
        });
      // Both threads start before the cheap requests are sent: the first query starts the pool.
      await waitFor(() => pool.stats().running === 1, { timeoutMs: 30_000, what: 'the expensive query running' });
      const ask = await request(app).get('/sparql').query({ query: 'ASK { ?s ?p ?o }' });
      expect(ask.status).toBe(200);
      const browse = await request(app).get('/restApi/namespaces/search/findByPrefix').query({ prefix: 'taxonomy' });
      expect(browse.status).toBe(200);
      expect(expensiveSettled).toBe(false);

      const res = await expensive;
      expect(res.status).toBe(503);
      expect(res.body.errorMessage).toBe(
        `The query ran longer than the time limit of ${TIME_LIMIT_MS} ms and was stopped; narrow it (fewer joins, a LIMIT) and send it again`,
      );
      // A fresh thread answers the next query.
      const after = await request(app).get('/sparql').query({ query: 'ASK { ?s ?p ?o }' });
      expect(after.status).toBe(200);
      // Counted for the operators (/metrics renders at most once a second: a later render's).
      await waitFor(
        async () => {
          const metrics = await request(app).get('/metrics');
          return Number(/^curie_sparql_timeouts_total (\d+)$/m.exec(metrics.text)?.[1] ?? 0) >= 1;
        },
        { timeoutMs: 10_000, what: 'the timeout counted in curie_sparql_timeouts_total' },
      );
    });

    it('answers 429 to a client with as many queries under way as it may have', async () => {
      const first = request(app).get('/sparql').query({ query: CROSS_JOIN }).then((res) => res);
      const second = request(app).get('/sparql').query({ query: CROSS_JOIN }).then((res) => res);
      await waitFor(() => pool.stats().running + pool.stats().queued === 2, { timeoutMs: 30_000, what: 'two queries under way' });
      const third = await request(app).get('/sparql').query({ query: 'ASK {}' });
      expect(third.status).toBe(429);
      expect(third.headers['retry-after']).toBeDefined();
      expect(third.body.errorMessage).toMatch(/at most 2 at once/);
      expect((await first).status).toBe(503);
      expect((await second).status).toBe(503);
    });
  });

  it('answers from a new dataset build once it is served', async () => {
    await t.db('namespaces').where({ prefix: 'taxonomy' }).update({ name: 'Renamed taxonomy' });
    await processDatasetBuild({ db: t.db, dir: t.datasetDir }, { data: { reason: 'registry-change' } });
    await waitFor(
      async () => {
        const rows = await select('SELECT ?title WHERE { ?ns idot:preferredPrefix "taxonomy" ; dcterms:title ?title }');
        return rows[0]?.title?.value === 'Renamed taxonomy';
      },
      { timeoutMs: 30_000, what: 'the renamed namespace in the SPARQL answers' },
    );
  });
});
