/**
 * The importer against the complete identifiers.org dataset (REGISTRY_DATASET, e.g.
 * ../shared/data/identifiers-org-registry.json). The tests build on each other: import, re-import,
 * then a corrupted copy against the imported registry.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../../src/db/knex.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';
import { runImporterCli as runCli } from '../support/processes.js';
import { createTestDatabase, tableSnapshot as snapshot, type TestDatabase } from '../support/test-database.js';

const datasetFile = registryDataset();
const dataset = datasetFile.file ?? '';

async function count(db: Db, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [row] = (await db(table).where(where).count('* as n')) as { n: string }[];
  return Number(row?.n);
}


describeRequiring([datasetFile], 'importing the real identifiers.org registry', () => {
  let t: TestDatabase;
  let tmp: string;

  beforeAll(async () => {
    t = await createTestDatabase('importer_real_data');
    tmp = mkdtempSync(path.join(os.tmpdir(), 'importer-real-data-'));
  });
  afterAll(async () => {
    await t.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('imports every namespace, resource and institution of the dataset', async () => {
    const summary = await importRegistry(t.db, validateNamespaces(await readDataset(dataset)), {});

    expect(summary.namespaces).toEqual({ created: 856, updated: 0, unchanged: 0 });
    expect(summary.resources).toEqual({ created: 1027, updated: 0, unchanged: 0 });
    expect(summary.institutions).toEqual({ created: 438, updated: 0, unchanged: 0 });
    expect(await count(t.db, 'namespaces')).toBe(856);
    expect(await count(t.db, 'resources')).toBe(1027);
    expect(await count(t.db, 'namespaces', { deprecated: true })).toBe(90);
    expect(await count(t.db, 'resources', { deprecated: true })).toBe(34);
    expect(await count(t.db, 'namespaces', { namespaceEmbeddedInLui: true })).toBe(46);
    expect(await t.db('namespaces').where({ prefix: '3dmet' }).first('id', 'mirId')).toEqual({ id: 230, mirId: 'MIR:00000066' });
  });

  it('reports no changes on a second import and writes nothing', async () => {
    const before = await snapshot(t.db);

    const summary = await importRegistry(t.db, validateNamespaces(await readDataset(dataset)), {});

    expect(summary).toEqual({
      namespaces: { created: 0, updated: 0, unchanged: 856 },
      resources: { created: 0, updated: 0, unchanged: 1027 },
      institutions: { created: 0, updated: 0, unchanged: 438 },
      locations: { updated: 0, unchanged: 36 },
    });
    expect(await snapshot(t.db)).toEqual(before);
  });

  it('rejects a corrupted copy and changes nothing', async () => {
    const records = JSON.parse(readFileSync(dataset, 'utf8')) as { prefix: string; name: string; resources: Record<string, unknown>[] }[];
    const target = records[500];
    if (!target) throw new Error('the dataset has fewer than 501 namespaces');
    (records[10] as { name: string }).name = 'Would be an update';
    delete target.resources[0]?.mirId;
    const corrupted = path.join(tmp, 'corrupted-registry.json');
    writeFileSync(corrupted, JSON.stringify(records));
    const before = await snapshot(t.db);

    const { code, stdout, stderr } = await runCli([corrupted], t.url);

    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toBe(`Import rejected: namespaces[500] (prefix '${target.prefix}'): resources[0].mirId is required\n`);
    expect(await snapshot(t.db)).toEqual(before);
  });
});
