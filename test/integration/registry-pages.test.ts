import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { SAMPLE_REGISTRY } from '../support/test-database.js';
import { refreshUsageTotals } from '../../src/db/usage-totals.js';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const JSON_CLIENT = 'application/json';

type Namespace = Record<string, unknown> & { resources: Record<string, unknown>[] };

/** A copy of the sample's taxonomy namespace under other ids, prefix, name and description. */
function namespaceLike(n: number, prefix: string, name: string, description: string): Namespace {
  const sample = JSON.parse(readFileSync(SAMPLE_REGISTRY, 'utf8')) as { payload: { namespaces: Namespace[] } } | Namespace[];
  const namespaces = Array.isArray(sample) ? sample : sample.payload.namespaces;
  const taxonomy = structuredClone(namespaces.find((ns) => ns.prefix === 'taxonomy')!);
  return {
    ...taxonomy,
    id: 90000 + n,
    prefix,
    name,
    description,
    mirId: `MIR:0009${String(n).padStart(4, '0')}`,
    resources: taxonomy.resources
      .slice(0, 1)
      .map((r) => ({ ...r, id: 91000 + n, mirId: `MIR:0019${String(n).padStart(4, '0')}`, urlPattern: `https://records.example/${prefix}/{$id}` })),
  };
}

const EXTRA = [
  namespaceLike(1, 'taxonomyext', 'Extended records', 'Records that extend another collection, here for the tests of the registry search only.'),
  namespaceLike(2, 'plantnames', 'Plant Taxonomy Names', 'Names of plants as botanists write them, here for the tests of the registry search only.'),
  namespaceLike(3, 'zoorecords', 'Zoo records', 'Animal records ordered by their taxonomy, here for the tests of the registry search only.'),
];

describe('the registry pages', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;
  beforeAll(async () => ({ app } = t = await startRegistry('registry_pages', { data: { extra: EXTRA } })));
  afterAll(() => t.close());

  describe('content negotiation', () => {
    it('still sends a JSON client, and a client without Accept, from /registry/{prefix} to the HAL item', async () => {
      const id = (await t.db('namespaces').where({ prefix: 'go' }).first('id'))!.id;
      for (const accept of [JSON_CLIENT, undefined, '*/*']) {
        const req = request(app).get('/registry/GO');
        const res = accept ? await req.set('Accept', accept) : await req;
        expect(res.status).toBe(302);
        expect(res.headers.location).toBe(`https://registry.test/restApi/namespaces/${id}`);
        expect(res.headers.vary).toMatch(/Accept/);
      }
      const missing = await request(app).get('/registry/nosuchprefix').set('Accept', JSON_CLIENT);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ apiVersion: '1.0', errorMessage: "No namespace with prefix 'nosuchprefix'", payload: null });
    });

    it('keeps the HAL API and the unknown-path envelope for every client, browsers included', async () => {
      const hal = await request(app).get('/restApi/namespaces/search/findByPrefix?prefix=go').set('Accept', BROWSER);
      expect(hal.status).toBe(200);
      expect(hal.headers['content-type']).toMatch(/^application\/hal\+json/);
      const root = await request(app).get('/').set('Accept', JSON_CLIENT);
      expect(root.status).toBe(404);
      expect(root.body).toEqual({ apiVersion: '1.0', errorMessage: 'No such endpoint: GET /', payload: null });
      const browse = await request(app).get('/registry');
      expect(browse.status).toBe(404);
      expect(browse.body.errorMessage).toBe('No such endpoint: GET /registry');
    });

    it('gives a browser an HTML 404 page for an address no route serves', async () => {
      const res = await request(app).get('/no/such/page').set('Accept', BROWSER);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<title>Page not found · Compact Identifier Registry</title>');
      expect(res.text).toContain('No such endpoint: GET /no/such/page');
    });
  });

  describe('the home page', () => {
    it('has the three boxes, the counts and the latest namespaces', async () => {
      const res = await request(app).get('/').set('Accept', BROWSER);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/Accept/);
      const namespaces = Number((await t.db('namespaces').count({ n: '*' }).first())!.n);
      const resources = Number((await t.db('resources').count({ n: '*' }).first())!.n);
      expect(res.text).toContain(`<strong>${namespaces}</strong> namespaces`);
      expect(res.text).toContain(`<strong>${resources}</strong> resources`);
      expect(res.text).toContain('action="/resolve"');
      expect(res.text).toContain('action="/reverse-lookup"');
      expect(res.text).toContain('action="/registry"');
      expect(res.text).toMatch(/<h3>Recently added namespaces<\/h3><ul><li><a href="\/registry\//);
    });

    it('sends the resolve box to the resolver with the identifier in the path', async () => {
      const res = await request(app).get('/resolve?id=GO%3A0006915');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('https://resolver.test/GO:0006915');
      expect((await request(app).get('/resolve?id=a%3Fb%23c')).headers.location).toBe('https://resolver.test/a%3Fb%23c');
    });

    it('turns a provider URL into its compact identifier through the reverse lookup', async () => {
      const res = await request(app)
        .get('/reverse-lookup')
        .query({ url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606' })
        .set('Accept', BROWSER);
      expect(res.status).toBe(200);
      expect(res.text).toContain('<code class="curie">taxonomy:9606</code>');
      const nothing = await request(app).get('/reverse-lookup').query({ url: 'https://unknown.example/x/1' });
      expect(nothing.text).toContain('No provider in the registry serves this address.');
      const invalid = await request(app).get('/reverse-lookup').query({ url: 'javascript:alert(1)' });
      expect(invalid.text).toContain('Enter a web address starting with http:// or https://');
    });
  });

  describe('search', () => {
    const prefixesOf = async (q: string) =>
      ((await request(app).get('/registry/search').query({ q, size: 50 })).body as { results: { prefix: string }[] }).results.map((r) => r.prefix);

    it('lists the exact prefix, then prefixes starting with the text, then names containing it, then description words', async () => {
      expect(await prefixesOf('taxonomy')).toEqual(['taxonomy', 'taxonomyext', 'plantnames', 'zoorecords']);
      expect(await prefixesOf('TAXONOMY')).toEqual(['taxonomy', 'taxonomyext', 'plantnames', 'zoorecords']);
      // A word of a name matches in another form (taxonomies → taxonomy), after names containing the text.
      expect(await prefixesOf('taxonomies')).toEqual(['plantnames', 'taxonomy', 'zoorecords']);
    });

    it('puts live namespaces before deprecated ones, the prefix that is the text first, and weighs the rank with the year’s visits', async () => {
      // zoorecords says "taxonomy" only in its description, plantnames in its name: used a thousand times
      // more, zoorecords climbs a rank, to plantnames's; taxonomyext, deprecated, goes below every live one.
      const lastMonth = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
      await t.db('usage_daily').insert({ day: lastMonth, prefix: 'zoorecords', visits: 1000, uniqueVisitors: 10 });
      await refreshUsageTotals(t.db);
      await t.db('namespaces').where({ prefix: 'taxonomyext' }).update({ deprecated: true });
      try {
        expect(await prefixesOf('taxonomy')).toEqual(['taxonomy', 'zoorecords', 'plantnames', 'taxonomyext']);
        // The prefix that is the text is first, deprecated or not.
        expect(await prefixesOf('taxonomyext')).toEqual(['taxonomyext']);
        await t.db('namespaces').where({ prefix: 'taxonomy' }).update({ deprecated: true });
        expect(await prefixesOf('taxonomy')).toEqual(['taxonomy', 'zoorecords', 'plantnames', 'taxonomyext']);
      } finally {
        await t.db('namespaces').whereIn('prefix', ['taxonomy', 'taxonomyext']).update({ deprecated: false });
        await t.db('usage_daily').where({ prefix: 'zoorecords' }).delete();
        await refreshUsageTotals(t.db);
      }
    });

    it('lets the reader choose 5, 20, 50 or 100 namespaces a page, kept in the page links and the next search', async () => {
      const page = async (query: string) => (await request(app).get(`/registry?${query}`).set('Accept', BROWSER)).text;
      const five = await page('size=5');
      expect(five).toContain('1–5 of 25 namespaces, page 1 of 5.');
      expect(five).toContain('<a href="/registry?size=5&amp;page=1" rel="next">');
      expect(five).toContain('<option value="5" selected>5</option>');
      expect(five).toMatch(/<form class="box" action="\/registry" method="get" role="search"><input type="hidden" name="size" value="5"\/>/);
      const third = await page('size=5&page=2');
      expect(third).toContain('11–15 of 25 namespaces, page 3 of 5.');
      expect(third).toContain('<a href="/registry?size=5&amp;page=1" rel="prev">');
      expect(third).toContain('<ol class="results" start="11">');
      expect(await page('size=50')).toContain('1–25 of 25 namespaces.');
      expect(await page('q=a&size=5')).toContain('<input type="hidden" name="q" value="a"/>');
      // Another number is the largest offered size not above it; anything else the default.
      expect(await page('size=7')).toContain('1–5 of 25 namespaces, page 1 of 5.');
      expect(await page('size=100000')).toContain('1–25 of 25 namespaces.');
      for (const junk of ['size=0', 'size=-5', 'size=abc', 'size=1e3', `size=${'9'.repeat(40)}`]) {
        expect([junk, await page(junk)]).toEqual([junk, expect.stringMatching(/1–(5|20) of 25 namespaces/)]);
      }
      expect(await page('size=abc')).toContain('1–20 of 25 namespaces, page 1 of 2.');
      // The default is left out of the links.
      expect(await page('size=20')).toContain('<a href="/registry?page=1" rel="next">');
    });

    it('answers the suggestions as JSON with each namespace page', async () => {
      const res = await request(app).get('/registry/search?q=gene%20ontology');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        query: 'gene ontology',
        total: 1,
        offset: 0,
        results: [{ prefix: 'go', name: 'Gene Ontology', mirId: 'MIR:00000022', deprecated: false, page: '/registry/go' }],
      });
      expect((await request(app).get('/registry/search?q=%25_%5C')).body.total).toBe(0);
    });

    it('shows the search as a page, deprecated namespaces marked, paged', async () => {
      const res = await request(app).get('/registry?q=3dmet').set('Accept', BROWSER);
      expect(res.status).toBe(200);
      expect(res.text).toMatch(/<a href="\/registry\/3dmet">3DMET<\/a> <code>3dmet<\/code><span class="badge deprecated">deprecated<\/span>/);
      const all = await request(app).get('/registry').set('Accept', BROWSER);
      expect(all.text).toContain('1–20 of 25 namespaces, page 1 of 2.');
      expect(all.text).toContain('<a href="/registry?page=1" rel="next">');
      const second = await request(app).get('/registry?page=1').set('Accept', BROWSER);
      expect(second.text).toContain('21–25 of 25 namespaces, page 2 of 2.');
      expect(second.text).toContain('<ol class="results" start="21">');
    });

    it('answers in the shape of EBI Search for the reference web app', async () => {
      const res = await request(app)
        .get('/ebisearch/ws/rest/identifiers_registry')
        .query({ query: 'taxonomy', fields: 'name,prefix,description,lui_pattern,sample_id', size: 2, start: 1, format: 'JSON' });
      expect(res.status).toBe(200);
      expect(res.body.hitCount).toBe(4);
      expect(res.body.entries).toHaveLength(2);
      expect(res.body.entries[0]).toEqual({
        id: '90001',
        source: 'identifiers_registry',
        fields: {
          name: ['Extended records'],
          prefix: ['taxonomyext'],
          description: [EXTRA[0]!.description],
          lui_pattern: ['^\\d+$'],
          sample_id: ['9606'],
        },
      });
      const all = await request(app).get('/ebisearch/ws/rest/identifiers_registry?query=*:*&size=5&format=JSON&fields=prefix');
      expect(all.body.hitCount).toBe(25);
      expect(all.body.entries.map((e: { fields: { prefix: string[] } }) => e.fields.prefix[0])).toEqual(['3dmet', '4dn', 'chebi', 'did', 'doi']);
      const escaped = await request(app).get('/ebisearch/ws/rest/identifiers_registry').query({ query: 'kegg\\.compound', format: 'json' });
      expect(escaped.body.entries[0].fields.prefix).toEqual(['kegg.compound']);
    });

    it('answers field names every object inherits (__proto__, constructor, toString) as any unknown field: left out', async () => {
      const unknown = await request(app).get('/ebisearch/ws/rest/identifiers_registry?query=taxonomy&size=1&fields=nosuchfield');
      expect(unknown.status).toBe(200);
      expect(unknown.body.entries[0].fields).toEqual({});
      for (const field of ['__proto__', '__defineGetter__', 'constructor', 'toString', 'hasOwnProperty']) {
        const res = await request(app).get(`/ebisearch/ws/rest/identifiers_registry?query=taxonomy&size=1&fields=${field}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual(unknown.body);
      }
      const mixed = await request(app).get('/ebisearch/ws/rest/identifiers_registry?query=taxonomy&size=1&fields=__proto__,prefix,constructor');
      expect(Object.keys(mixed.body.entries[0].fields)).toEqual(['prefix']);
    });

    it("serves the registry's EBI Search export, 204 when nothing changed since `start`", async () => {
      const res = await request(app).get('/registryInsightApi/getEbiSearchDataset');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['name', 'description', 'entry_count', 'entries']);
      expect(res.body.entry_count).toBe(25);
      const threedmet = res.body.entries.find((e: { fields: { name: string; value: string }[] }) => e.fields.some((f) => f.name === 'prefix' && f.value === '3dmet'));
      expect(Object.keys(threedmet)).toEqual(['cross_references', 'fields']);
      expect(threedmet.fields.map((f: { name: string }) => f.name)).toEqual([
        'id', 'name', 'description', 'prefix', 'mir_id', 'lui_pattern', 'sample_id', 'creation_date', 'modification_date', 'is_deprecated',
        'deprecation_date', 'landing_page', 'mir_id', 'resource_name', 'resource_description', 'institution_name', 'institution_description',
      ]);
      expect(threedmet.fields.find((f: { name: string }) => f.name === 'landing_page').value).toBe('https://resolver.test/3dmet');
      expect(threedmet.fields.find((f: { name: string }) => f.name === 'deprecation_date').value).toBe('2024-02-12');
      expect((await request(app).get('/registryInsightApi/getEbiSearchDataset?start=2999-01-01')).status).toBe(204);
      expect((await request(app).get('/registryInsightApi/getEbiSearchDataset?start=yesterday')).status).toBe(400);
    });
  });

  describe('the namespace page', () => {
    it('shows the namespace, its sample as a resolver link, its resources and links to the data', async () => {
      const res = await request(app).get('/registry/taxonomy').set('Accept', BROWSER);
      expect(res.status).toBe(200);
      expect(res.headers.vary).toMatch(/Accept/);
      const ns = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first())!;
      expect(res.text).toContain(`<title>${ns.name} (taxonomy) · Compact Identifier Registry</title>`);
      expect(res.text).toContain(`<code>${ns.mirId}</code>`);
      expect(res.text).toContain('<a href="https://resolver.test/taxonomy:9606" class="sample-link">taxonomy:9606</a>');
      expect(res.text).toContain(`<a href="/restApi/namespaces/${ns.id}">`);
      // The navigation's API link opens the documentation, not raw JSON.
      expect(res.text).toContain('<li><a href="/docs">API</a></li>');
      const resources = await t.db('resources').where({ namespaceId: ns.id });
      expect(res.text.match(/<li class="provider( chosen)?" id="resource-/g)).toHaveLength(resources.length);
      // No usage counted yet: said in words, not drawn as an empty chart.
      expect(res.text).not.toContain('<svg');
      expect(res.text).toContain('No resolution of its identifiers has been counted in the last 12 months yet.');
      expect(res.text).toContain('not checked yet');
    });

    it('shows the latest link check of each resource', async () => {
      const resource = (await t.db('resources').where({ namespaceId: (await t.db('namespaces').where({ prefix: 'chebi' }).first('id'))!.id }).orderBy('id').first())!;
      await t.db('link_checks').insert([
        { resourceId: resource.id, urlKind: 'sample', url: 'https://x.test/1', outcome: 'up', checkedAt: new Date('2026-01-01T00:00:00Z') },
        { resourceId: resource.id, urlKind: 'sample', url: 'https://x.test/1', outcome: 'not_found', httpStatus: 404, checkedAt: new Date('2026-01-02T00:00:00Z') },
      ]);
      const res = await request(app).get('/registry/chebi').set('Accept', BROWSER);
      expect(res.text).toMatch(/<span class="state-down">down: not found 404 \(sample page, 2026-01-02; reliability \d+ %\)<\/span>/);
    });

    it('draws the visits of the last months from the usage figures', async () => {
      const month = new Date().toISOString().slice(0, 7);
      await t.db('usage_daily').insert({ day: `${month}-01`, prefix: 'doi', visits: 42, uniqueVisitors: 7 });
      const res = await request(app).get('/registry/doi').set('Accept', BROWSER);
      expect(res.text).toContain(`<td>${month}</td><td>42</td>`);
      expect(res.text).toContain('<svg viewBox="0 0 640 200"');
    });

    it('marks a deprecated namespace and links its successor', async () => {
      const successor = (await t.db('namespaces').where({ prefix: 'chebi' }).first('id'))!.id;
      await t.db('namespaces').where({ prefix: '3dmet' }).update({ successorId: successor, deprecationStatement: 'Merged into <ChEBI>' });
      const res = await request(app).get('/registry/3dmet').set('Accept', BROWSER);
      expect(res.text).toContain('This namespace is deprecated since 2024-02-12.');
      expect(res.text).toContain('<p>Merged into &lt;ChEBI></p>');
      expect(res.text).toContain('Its successor is <a href="/registry/chebi">ChEBI</a>');
    });

    it('answers an unknown prefix with a 404 page suggesting close prefixes', async () => {
      const res = await request(app).get('/registry/taxonmy').set('Accept', BROWSER);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<ul class="suggested"><li><a href="/registry/taxonomy">taxonomy</a></li></ul>');
      const starts = await request(app).get('/registry/uni').set('Accept', BROWSER);
      expect(starts.text).toContain('<a href="/registry/uniprot">uniprot</a>');
    });
  });

  describe('static assets', () => {
    it('serves the stylesheet with a strong ETag, immutable at its versioned address, 304 when unchanged', async () => {
      const page = await request(app).get('/').set('Accept', BROWSER);
      const href = /<link rel="stylesheet" href="([^"]+)"/.exec(page.text)![1]!;
      const res = await request(app).get(href);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.text).toContain(':focus-visible');
      const again = await request(app).get(href).set('If-None-Match', res.headers.etag!);
      expect(again.status).toBe(304);
      expect((await request(app).get('/static/registry.css')).headers['cache-control']).toBe('public, max-age=300');
      expect((await request(app).get('/static/nothing.css')).status).toBe(404);
    });
  });
});
