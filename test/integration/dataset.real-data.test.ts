/**
 * The dataset built from the complete identifiers.org registry (REGISTRY_DATASET, e.g.
 * ../shared/data/identifiers-org-registry.json) equals that file once both are put in the same order: the
 * file is the reference endpoint's payload.namespaces with namespaces sorted by prefix, resources by id and
 * every object's keys sorted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDataset } from '../../src/dataset/build-dataset.js';
import type { DatasetManifest } from '../../src/dataset/dataset-files.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const datasetFile = registryDataset();
const dataset = datasetFile.file ?? '';

interface Resource {
  id: number;
  urlPattern: string;
  sampleId: string | null;
}
interface Namespace {
  prefix: string;
  resources: Resource[];
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** registry-data's order: namespaces by prefix, resources by id, keys sorted. */
function normalise(namespaces: Namespace[]): unknown {
  const byPrefix = [...namespaces].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
  return sortKeys(byPrefix.map((ns) => ({ ...ns, resources: [...ns.resources].sort((a, b) => a.id - b.id) })));
}

const namespacesOf = (file: string): Namespace[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { payload: { namespaces: Namespace[] } }).payload.namespaces;

describeRequiring([datasetFile], 'the dataset of the real identifiers.org registry', () => {
  let t: TestDatabase;
  let dir: string;
  let manifest: DatasetManifest;

  beforeAll(async () => {
    t = await createTestDatabase('dataset_real_data', { dataset });
    dir = mkdtempSync(path.join(os.tmpdir(), 'dataset-real-data-'));
    const started = performance.now();
    manifest = (await buildDataset({ db: t.db, dir })).manifest;
    console.info(`dataset: built ${manifest.namespaceCount} namespaces in ${Math.round(performance.now() - started)} ms`);
  }, 120_000);
  afterAll(async () => {
    await t.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('equals the shared file exactly once put in the same order', () => {
    const ours = namespacesOf(path.join(dir, manifest.variants.plain.file));
    const reference = JSON.parse(readFileSync(dataset, 'utf8')) as Namespace[];

    expect(ours).toHaveLength(856);
    expect(ours.flatMap((ns) => ns.resources)).toHaveLength(1027);
    const [a, b] = [normalise(ours), normalise(reference)];
    expect(JSON.stringify(a, null, 4)).toBe(JSON.stringify(b, null, 4));
    expect(a).toEqual(b);
  });

  it('rewrites exactly 79 resource URL patterns for rewriteForEmbeddedPrefixes=true', () => {
    const plain = namespacesOf(path.join(dir, manifest.variants.plain.file));
    const rewritten = namespacesOf(path.join(dir, manifest.variants.rewritten.file));
    const patterns = new Map(plain.flatMap((ns) => ns.resources.map((r) => [r.id, r.urlPattern] as const)));

    const changed = rewritten.flatMap((ns) => ns.resources).filter((r) => patterns.get(r.id) !== r.urlPattern);

    expect(changed).toHaveLength(79);
    expect(manifest.rewrittenResourceCount).toBe(79);
    for (const resource of changed) expect(resource.urlPattern).toContain('{$id}');
    const ark = rewritten.find((ns) => ns.prefix === 'ark')?.resources[0];
    expect(ark).toMatchObject({ urlPattern: 'https://n2t.net/{$id}', sampleId: 'ark:/53355/cl010066723' });
  });
});
