import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { createDb, migrateToLatest, type Db } from '../../src/db/knex.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { ROOT } from './processes.js';

/** The shared Postgres of this machine (or CI); each test file gets a database of its own on it. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The run's own Redis database, which jest's globalSetup (redis-test-db.ts) claims and checks for leftovers. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The small hand-written registry a first start loads (22 namespaces, 57 resources). */
export const SAMPLE_REGISTRY = path.join(ROOT, 'seeds/sample-registry.json');

export interface TestDatabase {
  db: Db;
  url: string;
  name: string;
  drop: () => Promise<void>;
}

function urlFor(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(server: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database named after the test file (plus a random suffix), optionally migrated, and
 * returns it with its URL. Call drop() in afterAll. With `server` (a Postgres cluster of the
 * test's own, for fault drills) drop() only closes the pool: the database goes with the cluster, which may
 * be stopped by then.
 */
export async function createTestDatabase(label: string, options: { migrate?: boolean; server?: string } = {}): Promise<TestDatabase> {
  const server = options.server ?? TEST_POSTGRES_URL;
  const name = `test_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await admin(server, (c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = urlFor(server, name);
  const db = createDb(url, { max: 5 });
  if (options.migrate !== false) await migrateToLatest(db);
  return {
    db,
    url,
    name,
    drop: async () => {
      await db.destroy();
      if (options.server === undefined) await admin(server, (c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}

/**
 * Imports a dataset file (the sample registry by default) into `db` as `npm run registry:import` does, with
 * `extra` namespace records after the file's; `records` instead of any file (a registry of fixtures only).
 */
export async function loadSample(db: Db, options: { file?: string; extra?: unknown[]; records?: unknown[] } = {}): Promise<void> {
  const records = options.records ?? ((await readDataset(options.file ?? SAMPLE_REGISTRY)) as unknown[]);
  await importRegistry(db, validateNamespaces(options.extra ? [...records, ...options.extra] : records), {});
}

/** Row count and a checksum per table; xmin changes on any write, even one that stores the same values. */
export async function tableSnapshot(db: Db): Promise<Record<string, unknown>> {
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
