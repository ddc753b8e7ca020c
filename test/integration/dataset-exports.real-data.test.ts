/**
 * The registry exports built from the complete identifiers.org registry (REGISTRY_DATASET, e.g.
 * ../shared/data/identifiers-org-registry.json): each read back by a parser of its own with a row, record or
 * node per namespace and resource, and every namespace's example URI (its URI prefix and sample id) one the
 * resolver resolves to that namespace.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import jsonld from 'jsonld';
import type { JsonLdDocument } from 'jsonld';
import { Parser, type Quad } from 'n3';
import { resolveCompactId } from '../../src/core/resolve.js';
import { buildDataset } from '../../src/dataset/build-dataset.js';
import type { DatasetManifest } from '../../src/dataset/dataset-files.js';
import { loadRegistry } from '../../src/resolver/snapshot-loader.js';
import { REGISTRY_URL, RESOLVER_URL } from '../support/areas.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const datasetFile = registryDataset();
const dataset = datasetFile.file ?? '';

interface DatasetNamespace {
  prefix: string;
  sampleId: string;
  resources: unknown[];
}

/** Sample ids that do not match their own namespace's pattern in the registry (see resolver-conformance). */
const SAMPLE_ID_MISMATCHES = new Set(['hogenom', 'homd.seq']);

describeRequiring([datasetFile], 'the exports of the real identifiers.org registry', () => {
  let t: TestDatabase;
  let dir: string;
  let manifest: DatasetManifest;
  let records: DatasetNamespace[];
  let resourceCount: number;
  const read = (format: string) => readFileSync(path.join(dir, (manifest.exports!.files as Record<string, { file: string }>)[format]!.file), 'utf8');

  beforeAll(async () => {
    records = JSON.parse(readFileSync(dataset, 'utf8')) as DatasetNamespace[];
    resourceCount = records.reduce((sum, ns) => sum + ns.resources.length, 0);
    t = await createTestDatabase('dataset_exports_real_data', { dataset });
    dir = mkdtempSync(path.join(os.tmpdir(), 'dataset-exports-real-data-'));
    const started = performance.now();
    manifest = (await buildDataset({ db: t.db, dir, urls: { publicResolverUrl: RESOLVER_URL, publicRegistryUrl: REGISTRY_URL } })).manifest;
    const sizes = Object.entries(manifest.exports!.files).map(([name, files]) => `${name} ${Math.round(files.size / 1024)} KiB`);
    console.info(`dataset with exports: built in ${Math.round(performance.now() - started)} ms; ${sizes.join(', ')}`);
  }, 120_000);

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.drop();
  });

  it('has a context term and a prefix map record per namespace, with distinct URI prefixes', () => {
    const context = (JSON.parse(read('context.jsonld')) as { '@context': Record<string, string> })['@context'];
    const map = JSON.parse(read('prefixmap.json')) as { prefix: string; uri_prefix: string }[];
    expect(Object.keys(context).sort()).toEqual(records.map((ns) => ns.prefix).sort());
    // (Sorted: an object puts integer-like keys, such as the prefix 4503, first.)
    expect(map.map((record) => [record.prefix, record.uri_prefix]).sort()).toEqual(Object.entries(context).sort());
    expect(new Set(map.map((record) => record.uri_prefix.toLowerCase())).size).toBe(records.length);
  });

  it("expands every namespace's sample compact identifier with the context to a URI the resolver resolves to that namespace", async () => {
    const context = (JSON.parse(read('context.jsonld')) as { '@context': Record<string, string> })['@context'];
    const { snapshot } = await loadRegistry(t.db);
    const match = 'http://www.w3.org/2004/02/skos/core#exactMatch';
    const doc = { '@context': context, '@id': 'urn:example:samples', [match]: records.map((ns) => ({ '@id': `${ns.prefix}:${ns.sampleId}` })) };
    const [node] = (await jsonld.expand(doc as JsonLdDocument)) as Record<string, { '@id': string }[]>[];
    const expanded = node![match]!;
    expect(expanded).toHaveLength(records.length);
    const problems: string[] = [];
    records.forEach((ns, i) => {
      const uri = expanded[i]!['@id'];
      if (!uri.startsWith(`${RESOLVER_URL}/`)) return problems.push(`${ns.prefix}: ${uri}`);
      const resolution = resolveCompactId(uri.slice(RESOLVER_URL.length + 1), snapshot, { publicRegistryUrl: REGISTRY_URL });
      if (SAMPLE_ID_MISMATCHES.has(ns.prefix)) return;
      if (resolution.kind !== 'resolved' || resolution.parsedCompactIdentifier.namespace !== ns.prefix) {
        problems.push(`${ns.prefix}: ${uri} → ${resolution.kind === 'resolved' ? resolution.parsedCompactIdentifier.namespace : resolution.message}`);
      }
    });
    expect(problems).toEqual([]);
  });

  it('has a CSV and a TSV row per namespace and per resource', () => {
    const tsv = { delimiter: '\t', quote: false } as const;
    expect(parseCsv(read('namespaces.csv'), { columns: true })).toHaveLength(records.length);
    expect(parseCsv(read('resources.csv'), { columns: true })).toHaveLength(resourceCount);
    expect(parseCsv(read('namespaces.tsv'), tsv)).toHaveLength(records.length + 1);
    expect(parseCsv(read('resources.tsv'), tsv)).toHaveLength(resourceCount + 1);
  });

  it('has Turtle and N-Triples that parse to the same triples, a dataset per namespace and an access pattern per resource', () => {
    const canonical = (quads: Quad[]) => quads.map((q) => `${q.subject.id} ${q.predicate.id} ${q.object.id}`).sort();
    const turtle = new Parser({ format: 'text/turtle' }).parse(read('registry.ttl'));
    const nTriples = new Parser({ format: 'N-Triples' }).parse(read('registry.nt'));
    expect(canonical(nTriples)).toEqual(canonical(turtle));
    const typed = (type: string) => turtle.filter((q) => q.predicate.value.endsWith('#type') && q.object.value === type).length;
    expect(typed('http://purl.org/dc/dcmitype/Dataset')).toBe(records.length);
    expect(typed('http://identifiers.org/idot/AccessPattern')).toBe(resourceCount);
  });
});
