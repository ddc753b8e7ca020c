/**
 * The resolver dataset: the build (called as the worker's processor calls it) and the endpoint serving its
 * files, over the sample registry in a database of its own.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { importRegistry } from '../../src/importer/import-registry.js';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { buildDataset } from '../../src/dataset/build-dataset.js';
import { DatasetFiles, manifestFiles, readManifest, type DatasetManifest } from '../../src/dataset/dataset-files.js';
import { runRecordedBuild, recentBuilds } from '../../src/dataset/dataset-builds.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { waitFor } from '../support/wait.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { createTestDatabase } from '../support/test-database.js';

const NAMESPACE_KEYS = [
  'id', 'prefix', 'mirId', 'name', 'pattern', 'description', 'created', 'modified', 'resources', 'sampleId',
  'namespaceEmbeddedInLui', 'deprecated', 'deprecationDate', 'deprecationOfflineDate', 'renderDeprecatedLanding',
  'deprecationStatement', 'infoOnPostmortemAccess', 'successor',
];
const RESOURCE_KEYS = [
  'id', 'mirId', 'urlPattern', 'name', 'description', 'official', 'providerCode', 'sampleId', 'resourceHomeUrl',
  'institution', 'location', 'deprecated', 'deprecationDate', 'deprecationOfflineDate', 'renderDeprecatedLanding',
  'deprecationStatement', 'protectedUrls', 'renderProtectedLanding', 'authHelpUrl', 'authHelpDescription',
];

interface Resource {
  id: number;
  mirId: string;
  urlPattern: string;
  sampleId: string | null;
  deprecated: boolean;
  institution: Record<string, unknown> & { location: Record<string, unknown> };
  location: Record<string, unknown>;
}
interface Namespace {
  id: number;
  prefix: string;
  deprecated: boolean;
  successor: unknown;
  deprecationStatement: string | null;
  infoOnPostmortemAccess: string | null;
  deprecationOfflineDate: string | null;
  resources: Resource[];
}
interface Dataset {
  apiVersion: string;
  errorMessage: null;
  payload: { namespaces: Namespace[] };
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let t: RegistryUnderTest;
let dir: string;
let server: http.Server;
let baseUrl: string;

/** A GET that leaves the body as sent (supertest would unzip it). */
function get(pathAndQuery: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl}${pathAndQuery}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const DATASET = '/resolutionApi/getResolverDataset';
const build = () => processDatasetBuild({ db: t.db, dir }, { data: { reason: 'registry-change' } });
const manifest = async (): Promise<DatasetManifest> => (await readManifest(dir)) as DatasetManifest;
const plainFile = async () => readFileSync(path.join(dir, (await manifest()).variants.plain.file));

beforeAll(async () => {
  t = await startRegistry('dataset_build');
  dir = t.datasetDir;
  t.redis.on('error', () => undefined);
  // Deprecation details curators can store, which the reference's dataset drops.
  const go = (await t.db('namespaces').where({ prefix: 'go' }).first('id')) as { id: number };
  await t.db('namespaces').where({ prefix: '3dmet' }).update({
    successorId: go.id,
    deprecationStatement: 'Superseded',
    infoOnPostmortemAccess: 'Ask the curators',
    deprecationOfflineDate: new Date('2024-03-01T10:00:00.123Z'),
  });
  await t.db('resources').where({ mirId: 'MIR:00100561' }).update({ deprecationStatement: 'Gone offline' });
  server = http.createServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('building the dataset', () => {
  it('writes every namespace and resource, deprecated ones included, in the reference field order', async () => {
    const outcome = await build();

    expect(outcome).toMatchObject({ status: 'built', namespaceCount: 22, resourceCount: 57 });
    const dataset = JSON.parse((await plainFile()).toString('utf8')) as Dataset;
    expect(Object.keys(dataset)).toEqual(['apiVersion', 'errorMessage', 'payload']);
    expect(dataset.apiVersion).toBe('1.0');
    expect(dataset.errorMessage).toBeNull();
    const { namespaces } = dataset.payload;
    expect(namespaces).toHaveLength(22);
    expect(namespaces.map((n) => n.id)).toEqual([...namespaces.map((n) => n.id)].sort((a, b) => a - b));
    for (const namespace of namespaces) {
      expect(Object.keys(namespace)).toEqual(NAMESPACE_KEYS);
      expect(namespace.resources.map((r) => r.id)).toEqual([...namespace.resources.map((r) => r.id)].sort((a, b) => a - b));
      for (const resource of namespace.resources) {
        expect(Object.keys(resource)).toEqual(RESOURCE_KEYS);
        expect(Object.keys(resource.institution)).toEqual(['id', 'name', 'homeUrl', 'description', 'rorId', 'location']);
        expect(Object.keys(resource.institution.location)).toEqual(['countryCode', 'countryName']);
        expect(Object.keys(resource.location)).toEqual(['countryCode', 'countryName']);
      }
    }
    expect(namespaces.find((n) => n.prefix === '3dmet')?.deprecated).toBe(true);
    expect(namespaces.flatMap((n) => n.resources).filter((r) => r.deprecated).map((r) => r.mirId).sort()).toEqual([
      'MIR:00100561', 'MIR:00100630', 'MIR:00100745',
    ]);
  });

  it('writes stored deprecation details, naming the successor by its prefix', async () => {
    const { namespaces } = (JSON.parse((await plainFile()).toString('utf8')) as Dataset).payload;
    const deprecated = namespaces.find((n) => n.prefix === '3dmet');
    expect(deprecated).toMatchObject({
      successor: 'go',
      deprecationStatement: 'Superseded',
      infoOnPostmortemAccess: 'Ask the curators',
      deprecationOfflineDate: '2024-03-01T10:00:00.123+00:00',
    });
    expect(namespaces.find((n) => n.prefix === 'go')?.successor).toBeNull();
    const resource = namespaces.flatMap((n) => n.resources).find((r) => r.mirId === 'MIR:00100561');
    expect(resource).toMatchObject({ deprecationStatement: 'Gone offline' });
  });

  it('records the build and skips the next one while the registry has not changed', async () => {
    const before = await manifest();

    const outcome = await build();

    expect(outcome.status).toBe('skipped');
    expect(await manifest()).toEqual(before);
    const [skipped, built] = await recentBuilds(t.db, 2);
    expect(skipped).toMatchObject({ status: 'skipped', reason: 'registry-change', error: null });
    expect(skipped?.finishedAt).toBeInstanceOf(Date);
    expect(built).toMatchObject({
      id: before.buildId,
      status: 'succeeded',
      reason: 'registry-change',
      namespaceCount: 22,
      resourceCount: 57,
      bytes: before.variants.plain.size,
      registryVersion: before.registryVersion,
      error: null,
      worker: `${os.hostname()}:${process.pid}`,
    });
    expect(built?.finishedAt?.getTime()).toBeGreaterThanOrEqual(built?.startedAt.getTime() ?? Infinity);
  });

  it('builds again after a registry change and removes the files of older builds', async () => {
    const first = await manifest();
    await t.db('resources').where({ mirId: 'MIR:00100561' }).update({ name: 'Renamed resource' });

    const outcome = await build();

    expect(outcome.status).toBe('built');
    const second = await manifest();
    expect(second.registryVersion).toBeGreaterThan(first.registryVersion);
    expect(second.variants.plain.sha256).not.toBe(first.variants.plain.sha256);
    expect((await plainFile()).toString('utf8')).toContain('"name":"Renamed resource"');

    await t.db('resources').where({ mirId: 'MIR:00100561' }).update({ name: 'Renamed again' });
    await build();
    const third = await manifest();
    // The current build and the one before stay (a reader may still hold the previous manifest).
    const kept = [second, third].flatMap((m) => manifestFiles(m).flatMap((v) => [v.file, v.gzipFile]));
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', ...kept].sort());
  });

  it('leaves the served files untouched when a build fails midway', async () => {
    const before = await manifest();
    const files = readdirSync(dir).sort();
    // Digests of the bytes: jest compares two Buffers byte by byte as values, about a minute for these files.
    const digestOf = (name: string) => createHash('sha256').update(readFileSync(path.join(dir, name))).digest('hex');
    const contents = files.map(digestOf);
    await t.db('namespaces').where({ prefix: 'go' }).update({ name: 'Gene Ontology, changed' });

    await expect(
      runRecordedBuild(t.db, {
        db: t.db,
        dir,
        reason: 'registry-change',
        pageSize: 5,
        onProgress: (done) => {
          if (done >= 10) throw new Error('disk on fire');
        },
      }),
    ).rejects.toThrow('disk on fire');

    expect(await manifest()).toEqual(before);
    expect(readdirSync(dir).sort()).toEqual(files);
    expect(files.map(digestOf)).toEqual(contents);
    const [failed] = await recentBuilds(t.db, 1);
    expect(failed).toMatchObject({ status: 'failed', error: 'disk on fire' });
    expect(failed?.finishedAt).toBeInstanceOf(Date);
  });

  it('marks a build a dead worker left running as abandoned', async () => {
    const [ghost] = (await t.db('datasetBuilds').insert({ reason: 'nightly', worker: 'gone:1', status: 'running' }).returning('id')) as { id: number }[];

    expect((await build()).status).toBe('built');

    expect(await t.db('datasetBuilds').where({ id: ghost!.id }).first('status', 'error')).toEqual({ status: 'failed', error: 'abandoned' });
  });

  it('pages through the registry with the same bytes whatever the page size', async () => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'dataset-pages-'));
    try {
      const result = await buildDataset({ db: t.db, dir: other, pageSize: 3 });
      expect(result.manifest.variants.plain.sha256).toBe((await manifest()).variants.plain.sha256);
      expect(result.manifest.variants.rewritten.sha256).toBe((await manifest()).variants.rewritten.sha256);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('GET /resolutionApi/getResolverDataset', () => {
  it('sends the prebuilt file with a strong ETag, Last-Modified and caching headers', async () => {
    const current = await manifest();

    const res = await get(DATASET);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toBe(`"${current.variants.plain.sha256}"`);
    expect(res.headers['last-modified']).toBe(new Date(current.lastModified).toUTCString());
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(Number(res.headers['content-length'])).toBe(current.variants.plain.size);
    expect(res.body.equals(await plainFile())).toBe(true);
  });

  it('sends the gzip file to clients that accept gzip', async () => {
    const current = await manifest();

    const res = await get(DATASET, { 'Accept-Encoding': 'gzip, deflate, br' });

    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.etag).toBe(`"${current.variants.plain.sha256}-gzip"`);
    expect(Number(res.headers['content-length'])).toBe(current.variants.plain.gzipSize);
    expect(gunzipSync(res.body).equals(await plainFile())).toBe(true);
  });

  it('answers 304 without a body when If-None-Match names the current build', async () => {
    const current = await manifest();
    const tag = `"${current.variants.plain.sha256}"`;

    for (const [ifNoneMatch, acceptEncoding] of [
      [tag, 'identity'],
      [`W/${tag}`, 'identity'],
      [`"stale", "${current.variants.plain.sha256}-gzip"`, 'gzip'],
      [`"${current.variants.plain.sha256}-gzip"`, 'identity'],
    ] as const) {
      const res = await get(DATASET, { 'If-None-Match': ifNoneMatch, 'Accept-Encoding': acceptEncoding });
      expect(res.status).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.etag).toBe(acceptEncoding === 'gzip' ? `"${current.variants.plain.sha256}-gzip"` : tag);
    }
    expect((await get(DATASET, { 'If-None-Match': '"something-else"' })).status).toBe(200);
  });

  it('answers 304 to If-Modified-Since at or after Last-Modified', async () => {
    const first = await get(DATASET);
    const lastModified = first.headers['last-modified'] as string;

    expect((await get(DATASET, { 'If-Modified-Since': lastModified })).status).toBe(304);
    expect((await get(DATASET, { 'If-Modified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' })).status).toBe(200);
  });

  it('sends the rewritten variant for rewriteForEmbeddedPrefixes=true', async () => {
    const current = await manifest();

    const res = await get(`${DATASET}?rewriteForEmbeddedPrefixes=true`);
    const plain = await get(`${DATASET}?rewriteForEmbeddedPrefixes=false`);

    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(`"${current.variants.rewritten.sha256}"`);
    expect(plain.headers.etag).toBe(`"${current.variants.plain.sha256}"`);
    const chebi = (JSON.parse(res.body.toString('utf8')) as Dataset).payload.namespaces.find((n) => n.prefix === 'chebi');
    const plainChebi = (JSON.parse(plain.body.toString('utf8')) as Dataset).payload.namespaces.find((n) => n.prefix === 'chebi');
    expect(plainChebi?.resources.some((r) => r.urlPattern.includes('CHEBI:{$id}'))).toBe(true);
    expect(chebi?.resources.some((r) => r.urlPattern.includes('CHEBI:{$id}'))).toBe(false);
    for (const resource of chebi?.resources ?? []) expect(resource.sampleId).toMatch(/^CHEBI:/);
    const gz = await get(`${DATASET}?rewriteForEmbeddedPrefixes=true`, { 'Accept-Encoding': 'gzip' });
    expect(gunzipSync(gz.body).equals(res.body)).toBe(true);
  });

  it('sends a new build within a second of its manifest being replaced', async () => {
    const before = (await get(DATASET)).headers.etag;
    await t.db('namespaces').where({ prefix: 'go' }).update({ name: 'Gene Ontology, again' });
    await build();
    const after = `"${(await manifest()).variants.plain.sha256}"`;
    expect(after).not.toBe(before);

    const etag = await waitFor(async () => ((await get(DATASET)).headers.etag === after ? after : undefined), {
      timeoutMs: 3000,
      everyMs: 100,
      what: 'the new build being sent',
    });
    expect(etag).toBe(after);
  });
});

describe('reading the served files', () => {
  it('streams files too large to hold in memory from disk, byte for byte', async () => {
    const current = await manifest();
    const files = new DatasetFiles(dir, 1000, 0);

    const opened = await files.open('rewritten', true);

    expect(opened?.size).toBe(current.variants.rewritten.gzipSize);
    const body = opened?.body as Readable;
    expect(Buffer.isBuffer(body)).toBe(false);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(readFileSync(path.join(dir, current.variants.rewritten.gzipFile)))).toBe(true);
  });

  it('holds small files in memory', async () => {
    const opened = await new DatasetFiles(dir).open('plain', false);

    expect(Buffer.isBuffer(opened?.body)).toBe(true);
    expect((opened?.body as Buffer).equals(await plainFile())).toBe(true);
  });

  it('finds no dataset in an empty directory', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'dataset-empty-'));
    try {
      expect(await new DatasetFiles(empty).open('plain', true)).toBeNull();
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('round trip through the importer', () => {
  it('imports our own dataset into an empty database whose next build is identical byte for byte', async () => {
    const second = await createTestDatabase('dataset_round_trip');
    const otherDir = mkdtempSync(path.join(os.tmpdir(), 'dataset-round-trip-'));
    try {
      const current = await manifest();
      const ours = path.join(dir, current.variants.plain.file);

      await importRegistry(second.db, validateNamespaces(await readDataset(ours)), {});
      const rebuilt = await buildDataset({ db: second.db, dir: otherDir });

      const again = readFileSync(path.join(otherDir, rebuilt.manifest.variants.plain.file));
      expect(again.equals(readFileSync(ours))).toBe(true);
      expect(rebuilt.manifest.variants.rewritten.sha256).toBe(current.variants.rewritten.sha256);
      expect((JSON.parse(again.toString('utf8')) as Dataset).payload.namespaces.find((n) => n.prefix === '3dmet')?.successor).toBe('go');
    } finally {
      await second.drop();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });
});
