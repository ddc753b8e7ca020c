/**
 * The importer against the complete identifiers.org dataset (REGISTRY_DATASET, e.g.
 * ../shared/data/identifiers-org-registry.json). The tests build on each other: import, re-import,
 * then a corrupted copy against the imported registry.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../src/db/knex.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const dataset = process.env.REGISTRY_DATASET || undefined;
const inCi = process.env.CI === 'true';
const realIt = dataset ? it : it.skip;
const CLI = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'dist/src/importer/cli.js');

if (!dataset && !inCi) {
  console.warn(
    'Real-data importer tests skipped: set REGISTRY_DATASET to the identifiers.org dataset ' +
      '(e.g. REGISTRY_DATASET=../shared/data/identifiers-org-registry.json) to run them.',
  );
}

/** Row count and a checksum per table; xmin changes on any write, even one that stores the same values. */
async function snapshot(db: Db): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const table of ['locations', 'institutions', 'namespaces', 'resources']) {
    const { rows } = await db.raw<{ rows: unknown[] }>(
      "SELECT count(*)::int AS count, md5(coalesce(string_agg(t::text || '@' || t.xmin::text, '|' ORDER BY t::text), '')) AS sum FROM ?? t",
      [table],
    );
    result[table] = rows[0];
  }
  return result;
}

async function count(db: Db, table: string, where: Record<string, unknown> = {}): Promise<number> {
  const [row] = (await db(table).where(where).count('* as n')) as { n: string }[];
  return Number(row?.n);
}

function runCli(args: string[], databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('importing the real identifiers.org registry', () => {
  if (!dataset && inCi) {
    it('has the dataset to test with', () => {
      throw new Error('REGISTRY_DATASET is required in CI: point it at identifiers-org-registry.json (see .ci/run).');
    });
    return;
  }

  let t: TestDatabase;
  let tmp: string;

  beforeAll(async () => {
    if (!dataset) return;
    t = await createTestDatabase('importer_real_data');
    tmp = mkdtempSync(path.join(os.tmpdir(), 'importer-real-data-'));
  });
  afterAll(async () => {
    if (!dataset) return;
    await t.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  realIt('imports every namespace, resource and institution of the dataset', async () => {
    const summary = await importRegistry(t.db, validateNamespaces(await readDataset(dataset as string)), {});

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

  realIt('reports no changes on a second import and writes nothing', async () => {
    const before = await snapshot(t.db);

    const summary = await importRegistry(t.db, validateNamespaces(await readDataset(dataset as string)), {});

    expect(summary).toEqual({
      namespaces: { created: 0, updated: 0, unchanged: 856 },
      resources: { created: 0, updated: 0, unchanged: 1027 },
      institutions: { created: 0, updated: 0, unchanged: 438 },
      locations: { updated: 0, unchanged: 36 },
    });
    expect(await snapshot(t.db)).toEqual(before);
  });

  realIt('rejects a corrupted copy and changes nothing', async () => {
    const records = JSON.parse(readFileSync(dataset as string, 'utf8')) as { prefix: string; name: string; resources: Record<string, unknown>[] }[];
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
