/**
 * The registry exports: written by the dataset build (as the worker's processor calls it) beside the dataset,
 * served at /resolutionApi/export/{format}, and a namespace's RDF on /registry/{prefix}; every export read
 * back with a parser of its own (n3 for RDF, jsonld for the context, csv-parse for the tables), over the
 * sample registry in a database of its own.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import jsonld from 'jsonld';
import type { JsonLdDocument } from 'jsonld';
import { Parser, type Quad } from 'n3';
import request from 'supertest';
import { buildDataset } from '../../src/dataset/build-dataset.js';
import { manifestFiles, readManifest, type DatasetManifest } from '../../src/dataset/dataset-files.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { REGISTRY_URL, RESOLVER_URL, startRegistry, type RegistryUnderTest } from '../support/areas.js';

const URLS = { publicResolverUrl: RESOLVER_URL, publicRegistryUrl: REGISTRY_URL };
const FORMATS = [
  'context.jsonld', 'prefixmap.json', 'namespaces.tsv', 'namespaces.csv', 'resources.tsv', 'resources.csv', 'registry.ttl', 'registry.nt',
];
const NAMESPACE_COLUMNS = [
  'id', 'prefix', 'mirId', 'name', 'description', 'pattern', 'sampleId', 'namespaceEmbeddedInLui', 'uriPrefix', 'synonyms',
  'deprecated', 'deprecationDate', 'successor', 'created', 'modified',
];
const RESOURCE_COLUMNS = [
  'id', 'mirId', 'prefix', 'providerCode', 'name', 'description', 'urlPattern', 'sampleId', 'resourceHomeUrl', 'official',
  'countryCode', 'institutionName', 'institutionHomeUrl', 'institutionRorId', 'institutionCountryCode', 'protectedUrls',
  'deprecated', 'deprecationDate',
];
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const IDOT = 'http://identifiers.org/idot/';
const VOID = 'http://rdfs.org/ns/void#';
// Every kind of character a CSV or TSV writer must get right, in one description.
const AWKWARD = 'Comma, "quotes", a tab\there,\nnew line, CR\r, back\\slash and ünïcödé';
// What a requester could make a spreadsheet run, as the text of a namespace and of a provider.
const FORMULAS = { name: '=HYPERLINK("https://evil.example/","Locus")', description: "+cmd|' /C calc'!A0", providerName: '@SUM(1+1)*cmd|calc', sampleId: '-1+1' };

let t: RegistryUnderTest;
let dir: string;
let namespaceCount: number;
let resourceCount: number;

const build = () => processDatasetBuild({ db: t.db, dir, urls: URLS }, { data: { reason: 'registry-change' } });
const manifest = async (): Promise<DatasetManifest> => (await readManifest(dir)) as DatasetManifest;
const exportText = async (format: string): Promise<string> => {
  const files = (await manifest()).exports!.files as Record<string, { file: string }>;
  return readFileSync(path.join(dir, files[format]!.file), 'utf8');
};

/** Any answer's body as text (supertest parses only some types). */
function getText(url: string, headers: Record<string, string> = {}) {
  return request(t.app)
    .get(url)
    .set(headers)
    .buffer(true)
    .parse((res, done) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done(null, text));
    });
}

const canonical = (quads: Quad[]): string[] =>
  quads.map((q) => `${q.subject.id} ${q.predicate.id} ${q.object.id}`).sort();

const unescapeTsv = (value: string): string =>
  value.replace(/\\([\\tnr])/g, (_, c: string) => ({ '\\': '\\', t: '\t', n: '\n', r: '\r' })[c]!);

const countOf = async (sql: string): Promise<number> => Number((await t.db.raw<{ rows: { count: string }[] }>(sql)).rows[0]!.count);

beforeAll(async () => {
  t = await startRegistry('dataset_exports');
  dir = t.datasetDir;
  t.redis.on('error', () => undefined);
  await t.db('namespaces').where({ prefix: 'taxonomy' }).update({ description: AWKWARD });
  await t.db('resources').where({ mirId: 'MIR:00100561' }).update({ description: AWKWARD });
  await t.db('namespaces').where({ prefix: 'lrg' }).update({ name: FORMULAS.name, description: FORMULAS.description });
  await t.db('resources').where({ mirId: 'MIR:00100478' }).update({ name: FORMULAS.providerName, sampleId: FORMULAS.sampleId });
  // A successor, for dcterms:isReplacedBy.
  const go = (await t.db('namespaces').where({ prefix: 'go' }).first('id')) as { id: number };
  await t.db('namespaces').where({ prefix: '3dmet' }).update({ successorId: go.id });
  expect((await build()).status).toBe('built');
  namespaceCount = await countOf('SELECT count(*) FROM namespaces');
  resourceCount = await countOf('SELECT count(*) FROM resources');
});

afterAll(async () => {
  await t.close();
});

describe('the dataset build', () => {
  it('writes every export once per build, each with its gzip sibling and its own hash, named in the manifest', async () => {
    const current = await manifest();
    expect(Object.keys(current.exports!.files)).toEqual(FORMATS);
    expect(current.exports).toMatchObject(URLS);
    const hashes = new Set(Object.values(current.exports!.files).map((files) => files.sha256));
    expect(hashes.size).toBe(FORMATS.length);
    // Exactly the files of this build (the first in this directory): the dataset's two variants and the exports.
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', ...manifestFiles(current).flatMap((f) => [f.file, f.gzipFile])].sort());
    expect(manifestFiles(current)).toHaveLength(2 + FORMATS.length);
  });

  it('skips an unchanged registry, and builds again when the public URLs change, whose URIs the exports hold', async () => {
    const before = await manifest();
    expect((await build()).status).toBe('skipped');

    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'dataset-exports-urls-'));
    try {
      expect((await buildDataset({ db: t.db, dir: elsewhere, urls: URLS })).status).toBe('built');
      const moved = { publicResolverUrl: 'https://id.example.org', publicRegistryUrl: 'https://registry.example.org' };
      const rebuilt = await buildDataset({ db: t.db, dir: elsewhere, urls: moved });
      expect(rebuilt.status).toBe('built');
      // The dataset does not name the URLs: same bytes; the exports do.
      expect(rebuilt.manifest.variants.plain.sha256).toBe(before.variants.plain.sha256);
      expect(rebuilt.manifest.exports!.files['context.jsonld'].sha256).not.toBe(before.exports!.files['context.jsonld'].sha256);
      const context = readFileSync(path.join(elsewhere, rebuilt.manifest.exports!.files['context.jsonld'].file), 'utf8');
      expect(context).toContain('"taxonomy": "https://id.example.org/taxonomy:"');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('leaves out of the exports a synonym stored before the rule refused what it holds', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'dataset-exports-old-synonyms-'));
    const chebi = (await t.db('namespaces').where({ prefix: 'chebi' }).first('id')) as { id: number };
    // As an older release stored them (the database's own check takes anything but ':', '/' and spaces).
    await t.db('namespaceSynonyms').insert(['chebi.compound', 'che"bi', '<chebi>', 'che|bi'].map((synonym) => ({ namespaceId: chebi.id, synonym })));
    try {
      const result = await buildDataset({ db: t.db, dir: elsewhere, urls: URLS });
      const read = (format: string) =>
        readFileSync(path.join(elsewhere, (result.manifest.exports!.files as Record<string, { file: string }>)[format]!.file), 'utf8');
      const records = JSON.parse(read('prefixmap.json')) as Record<string, unknown>[];
      expect(records.find((r) => r.prefix === 'chebi')).toMatchObject({ prefix_synonyms: ['chebi.compound'] });
      for (const format of ['prefixmap.json', 'context.jsonld', 'namespaces.csv', 'registry.ttl']) {
        expect([format, read(format)]).toEqual([format, expect.not.stringMatching(/che\\?"bi|<chebi>|che\|bi/)]);
      }
    } finally {
      await t.db('namespaceSynonyms').where({ namespaceId: chebi.id }).del();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('gives the exports the synonyms its reader finds', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'dataset-exports-synonyms-'));
    try {
      const taxonomy = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first('id')) as { id: number };
      const result = await buildDataset({
        db: t.db,
        dir: elsewhere,
        urls: URLS,
        readSynonyms: () => Promise.resolve(new Map([[taxonomy.id, ['ncbitaxon', 'taxon']]])),
      });
      const read = (format: string) =>
        readFileSync(path.join(elsewhere, (result.manifest.exports!.files as Record<string, { file: string }>)[format]!.file), 'utf8');
      const records = JSON.parse(read('prefixmap.json')) as Record<string, unknown>[];
      expect(records.find((r) => r.prefix === 'taxonomy')).toEqual({
        prefix: 'taxonomy',
        uri_prefix: `${RESOLVER_URL}/taxonomy:`,
        prefix_synonyms: ['ncbitaxon', 'taxon'],
        uri_prefix_synonyms: [`${RESOLVER_URL}/ncbitaxon:`, `${RESOLVER_URL}/taxon:`],
        pattern: '^\\d+$',
      });
      const rows = parseCsv(read('namespaces.csv'), { columns: true }) as Record<string, string>[];
      expect(rows.find((r) => r.prefix === 'taxonomy')?.synonyms).toBe('ncbitaxon|taxon');
      const quads = new Parser().parse(read('registry.ttl'));
      const alternates = quads.filter((q) => q.predicate.value === `${IDOT}alternatePrefix`).map((q) => [q.subject.value, q.object.value]);
      expect(alternates).toEqual([
        [`${REGISTRY_URL}/registry/taxonomy`, 'ncbitaxon'],
        [`${REGISTRY_URL}/registry/taxonomy`, 'taxon'],
      ]);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('the exports, read back by parsers of their own', () => {
  it('the JSON-LD context expands compact identifiers to the resolver URLs, embedded LUIs with their own prefix', async () => {
    const context = JSON.parse(await exportText('context.jsonld')) as { '@context': Record<string, string> };
    expect(Object.keys(context['@context'])).toHaveLength(namespaceCount);
    const doc = {
      '@context': context['@context'],
      '@id': 'taxonomy:9606',
      'http://www.w3.org/2004/02/skos/core#exactMatch': [{ '@id': 'go:0006915' }, { '@id': 'chebi:36927' }],
    };
    const [expanded] = (await jsonld.expand(doc as JsonLdDocument)) as Record<string, unknown>[];
    expect(expanded).toEqual({
      '@id': `${RESOLVER_URL}/taxonomy:9606`,
      'http://www.w3.org/2004/02/skos/core#exactMatch': [{ '@id': `${RESOLVER_URL}/GO:0006915` }, { '@id': `${RESOLVER_URL}/CHEBI:36927` }],
    });
  });

  it('the extended prefix map has a record per namespace with the context\'s URI prefix and no synonyms yet', async () => {
    const records = JSON.parse(await exportText('prefixmap.json')) as Record<string, unknown>[];
    const context = (JSON.parse(await exportText('context.jsonld')) as { '@context': Record<string, string> })['@context'];
    expect(records).toHaveLength(namespaceCount);
    for (const record of records) {
      expect(Object.keys(record).slice(0, 4)).toEqual(['prefix', 'uri_prefix', 'prefix_synonyms', 'uri_prefix_synonyms']);
      expect(record.uri_prefix).toBe(context[record.prefix as string]);
      expect(record.prefix_synonyms).toEqual([]);
    }
    expect(records.find((r) => r.prefix === 'go')).toEqual({
      prefix: 'go', uri_prefix: `${RESOLVER_URL}/GO:`, prefix_synonyms: [], uri_prefix_synonyms: [],
    });
    expect(new Set(records.map((r) => r.uri_prefix)).size).toBe(namespaceCount);
  });

  it('the CSV and TSV tables have the documented columns, a row per namespace and per resource, and every value as stored', async () => {
    const namespacesCsv = parseCsv(await exportText('namespaces.csv'), { columns: true }) as Record<string, string>[];
    const resourcesCsv = parseCsv(await exportText('resources.csv'), { columns: true }) as Record<string, string>[];
    // TSV quotes nothing: the escapes stand for tab, line breaks and backslash.
    const tsv = { delimiter: '\t', quote: false, relax_column_count: false } as const;
    const namespacesTsv = parseCsv(await exportText('namespaces.tsv'), tsv) as string[][];
    const resourcesTsv = parseCsv(await exportText('resources.tsv'), tsv) as string[][];

    expect(Object.keys(namespacesCsv[0]!)).toEqual(NAMESPACE_COLUMNS);
    expect(Object.keys(resourcesCsv[0]!)).toEqual(RESOURCE_COLUMNS);
    expect(namespacesTsv[0]).toEqual(NAMESPACE_COLUMNS);
    expect(resourcesTsv[0]).toEqual(RESOURCE_COLUMNS);
    expect(namespacesCsv).toHaveLength(namespaceCount);
    expect(resourcesCsv).toHaveLength(resourceCount);
    expect(namespacesTsv).toHaveLength(namespaceCount + 1);
    expect(resourcesTsv).toHaveLength(resourceCount + 1);

    const taxonomy = namespacesCsv.find((row) => row.prefix === 'taxonomy')!;
    expect(taxonomy.description).toBe(AWKWARD);
    expect(taxonomy.uriPrefix).toBe(`${RESOLVER_URL}/taxonomy:`);
    const taxonomyTsv = namespacesTsv.find((row) => row[1] === 'taxonomy')!.map(unescapeTsv);
    expect(taxonomyTsv).toEqual(NAMESPACE_COLUMNS.map((column) => taxonomy[column]));
    expect(resourcesCsv.find((row) => row.mirId === 'MIR:00100561')?.description).toBe(AWKWARD);
    expect(namespacesCsv.find((row) => row.prefix === '3dmet')).toMatchObject({ deprecated: 'true', successor: 'go' });

    // Every stored namespace and resource, each once.
    const stored = (await t.db('namespaces').orderBy('id').select('prefix', 'mirId')) as { prefix: string; mirId: string }[];
    expect(namespacesCsv.map((row) => [row.prefix, row.mirId])).toEqual(stored.map((row) => [row.prefix, row.mirId]));
    const storedResources = ((await t.db('resources').orderBy('mirId').select('mirId')) as { mirId: string }[]).map((row) => row.mirId);
    expect(resourcesCsv.map((row) => row.mirId).sort()).toEqual(storedResources);
    expect(resourcesTsv.slice(1).map((row) => unescapeTsv(row[1]!)).sort()).toEqual(storedResources);
  });

  it("start every cell a spreadsheet would run as a formula with a ', in CSV and TSV alike", async () => {
    const tsv = { delimiter: '\t', quote: false, columns: true } as const;
    for (const [format, options, decode] of [
      ['csv', { columns: true }, (value: string) => value],
      ['tsv', tsv, unescapeTsv],
    ] as const) {
      const namespaces = parseCsv(await exportText(`namespaces.${format}`), options) as Record<string, string>[];
      const resources = parseCsv(await exportText(`resources.${format}`), options) as Record<string, string>[];
      const lrg = namespaces.find((row) => row.prefix === 'lrg')!;
      expect([decode(lrg.name!), decode(lrg.description!)]).toEqual([`'${FORMULAS.name}`, `'${FORMULAS.description}`]);
      const provider = resources.find((row) => row.mirId === 'MIR:00100478')!;
      expect([decode(provider.name!), decode(provider.sampleId!)]).toEqual([`'${FORMULAS.providerName}`, `'${FORMULAS.sampleId}`]);
      const formulaCells = [...namespaces, ...resources].flatMap((row) => Object.values(row).map(decode)).filter((cell) => /^[=+\-@\t\r]/.test(cell));
      expect(formulaCells).toEqual([]);
    }
  });

  it('Turtle and N-Triples parse to the same triples: a dataset per namespace, an access pattern per resource', async () => {
    const turtle = new Parser({ format: 'text/turtle' }).parse(await exportText('registry.ttl'));
    const nTriples = new Parser({ format: 'N-Triples' }).parse(await exportText('registry.nt'));
    expect(canonical(nTriples)).toEqual(canonical(turtle));

    const typed = (type: string) => turtle.filter((q) => q.predicate.value === RDF_TYPE && q.object.value === type).length;
    expect(typed('http://purl.org/dc/dcmitype/Dataset')).toBe(namespaceCount);
    expect(typed(`${IDOT}AccessPattern`)).toBe(resourceCount);
    const institutions = await countOf('SELECT count(DISTINCT institution_id) FROM resources');
    expect(typed('http://xmlns.com/foaf/0.1/Organization')).toBe(institutions);
  });

  it("a namespace's triples say its prefix, pattern, URI space, example and resources", async () => {
    const quads = new Parser().parse(await exportText('registry.ttl'));
    const go = `${REGISTRY_URL}/registry/go`;
    const about = (subject: string, predicate: string) =>
      quads.filter((q) => q.subject.value === subject && q.predicate.value === predicate).map((q) => q.object.value);
    expect(about(go, `${IDOT}preferredPrefix`)).toEqual(['go']);
    expect(about(go, 'http://purl.org/dc/terms/identifier')).toEqual(['MIR:00000022']);
    expect(about(go, `${IDOT}identifierPattern`)).toEqual(['^GO:\\d{7}$']);
    expect(about(go, `${VOID}uriSpace`)).toEqual([`${RESOLVER_URL}/GO:`]);
    expect(about(go, `${VOID}exampleResource`)).toEqual([`${RESOLVER_URL}/GO:0006915`]);
    const goResources = ((await t.db('resources as r').join('namespaces as n', 'n.id', 'r.namespaceId').where('n.prefix', 'go').select('r.id')) as { id: number }[]).map((row) => row.id);
    expect(about(go, `${IDOT}accessPattern`).sort()).toEqual(goResources.map((id) => `${REGISTRY_URL}/restApi/resources/${id}`).sort());
    const resource = `${REGISTRY_URL}/restApi/resources/${goResources[0]}`;
    expect(about(resource, `${IDOT}accessIdentifierPattern`)[0]).toContain('{$id}');
    expect(about(resource, 'http://purl.org/dc/terms/isPartOf')).toEqual([go]);
    expect(about(`${REGISTRY_URL}/registry/3dmet`, 'http://www.w3.org/2002/07/owl#deprecated')).toEqual(['true']);
    expect(about(`${REGISTRY_URL}/registry/3dmet`, 'http://purl.org/dc/terms/isReplacedBy')).toEqual([go]);
    expect(about(`${REGISTRY_URL}/registry/taxonomy`, 'http://purl.org/dc/terms/description')).toEqual([AWKWARD]);
  });
});

describe('GET /resolutionApi/export', () => {
  it('lists every export with its URL, media type, size and ETag', async () => {
    const current = await manifest();
    const res = await request(t.app).get('/resolutionApi/export').expect(200);
    expect(res.body).toMatchObject({ apiVersion: '1.0', errorMessage: null });
    const formats = res.body.payload.formats as Record<string, unknown>[];
    expect(formats.map((f) => f.name)).toEqual(FORMATS);
    for (const format of formats) {
      const files = (current.exports!.files as Record<string, { size: number; sha256: string }>)[format.name as string]!;
      expect(format).toMatchObject({ url: `${REGISTRY_URL}/resolutionApi/export/${format.name}`, size: files.size, etag: `"${files.sha256}"` });
    }
    expect(res.body.payload.build).toMatchObject({ registryVersion: current.registryVersion, namespaceCount });
  });

  it.each([
    ['context.jsonld', 'application/ld+json'],
    ['prefixmap.json', 'application/json; charset=utf-8'],
    ['namespaces.tsv', 'text/tab-separated-values; charset=utf-8'],
    ['resources.csv', 'text/csv; charset=utf-8; header=present'],
    ['registry.ttl', 'text/turtle; charset=utf-8'],
    ['registry.nt', 'application/n-triples; charset=utf-8'],
  ])('serves %s as %s, the file the build wrote, with its ETag and a download name', async (format, type) => {
    const files = ((await manifest()).exports!.files as Record<string, { sha256: string; size: number }>)[format]!;
    const res = await getText(`/resolutionApi/export/${format}`, { 'Accept-Encoding': 'identity' }).expect(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers.etag).toBe(`"${files.sha256}"`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${format}"`);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['last-modified']).toBeDefined();
    expect(res.body).toBe(await exportText(format));
  });

  it('sends the gzip sibling to a client that takes it, under a tag of its own', async () => {
    const files = (await manifest()).exports!.files['registry.ttl'];
    const res = await getText('/resolutionApi/export/registry.ttl', { 'Accept-Encoding': 'gzip' }).expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.etag).toBe(`"${files.sha256}-gzip"`);
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.body).toBe(await exportText('registry.ttl'));
  });

  it('answers 304 to a client holding the current file, in either coding', async () => {
    const { sha256 } = (await manifest()).exports!.files['namespaces.csv'];
    for (const tag of [`"${sha256}"`, `"${sha256}-gzip"`, `W/"${sha256}"`]) {
      const res = await request(t.app).get('/resolutionApi/export/namespaces.csv').set('If-None-Match', tag);
      expect(res.status).toBe(304);
    }
    await request(t.app).get('/resolutionApi/export/namespaces.csv').set('If-None-Match', '"stale"').expect(200);
  });

  it('answers 404 naming the exports for a format that is none', async () => {
    const res = await request(t.app).get('/resolutionApi/export/registry.xml').expect(404);
    expect(res.body.errorMessage).toBe(
      "No export named 'registry.xml'; the exports are context.jsonld, prefixmap.json, namespaces.tsv, namespaces.csv, resources.tsv, resources.csv, registry.ttl, registry.nt (GET /resolutionApi/export lists them)",
    );
  });
});

describe('content negotiation on /registry/{prefix}', () => {
  it('answers Turtle, N-Triples and JSON-LD with the triples the export has for the namespace', async () => {
    const exported = new Set(canonical(new Parser().parse(await exportText('registry.ttl'))));
    const turtle = await getText('/registry/GO', { Accept: 'text/turtle' }).expect(200);
    expect(turtle.headers['content-type']).toBe('text/turtle; charset=utf-8');
    expect(turtle.headers.vary).toContain('Accept');
    const quads = new Parser({ format: 'text/turtle' }).parse(turtle.body as string);
    expect(quads.filter((q) => q.predicate.value === `${IDOT}accessPattern`)).toHaveLength(6);
    for (const triple of canonical(quads)) expect(exported.has(triple)).toBe(true);

    const nTriples = await getText('/registry/go', { Accept: 'application/n-triples' }).expect(200);
    expect(nTriples.headers['content-type']).toBe('application/n-triples; charset=utf-8');
    expect(canonical(new Parser({ format: 'N-Triples' }).parse(nTriples.body as string))).toEqual(canonical(quads));

    const json = await getText('/registry/go', { Accept: 'application/ld+json' }).expect(200);
    expect(json.headers['content-type']).toBe('application/ld+json; charset=utf-8');
    const nQuads = (await jsonld.toRDF(JSON.parse(json.body as string) as JsonLdDocument, { format: 'application/n-quads' })) as unknown as string;
    expect(canonical(new Parser({ format: 'N-Quads' }).parse(nQuads))).toEqual(canonical(quads));
  });

  it('prefers what the client prefers: RDF over JSON only when weighted so', async () => {
    const res = await getText('/registry/taxonomy', { Accept: 'application/json;q=0.5, text/turtle' }).expect(200);
    expect(res.headers['content-type']).toBe('text/turtle; charset=utf-8');
    const json = await request(t.app).get('/registry/taxonomy').set('Accept', 'application/json, text/turtle;q=0.5');
    expect(json.status).toBe(302);
  });

  it('keeps the page for browsers and the HAL redirect for every other client', async () => {
    const page = await request(t.app)
      .get('/registry/go')
      .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')
      .expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    for (const accept of [undefined, '*/*', 'application/json', 'application/hal+json']) {
      const req = request(t.app).get('/registry/go');
      const res = await (accept ? req.set('Accept', accept) : req);
      expect(res.status).toBe(302);
      expect(res.headers.location).toMatch(new RegExp(`^${REGISTRY_URL}/restApi/namespaces/\\d+$`));
    }
  });

  it('answers 404 for RDF of a prefix that is none', async () => {
    const res = await request(t.app).get('/registry/nosuchprefix').set('Accept', 'text/turtle').expect(404);
    expect(res.body.errorMessage).toBe("No namespace with prefix 'nosuchprefix'");
  });
});
