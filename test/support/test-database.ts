import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb, migrateToLatest, type Db } from '../../src/db/knex.js';

/** The shared Postgres of this machine (or CI); each test file gets a database of its own on it. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The run's own Redis database, which jest's globalSetup (redis-test-db.ts) claims and checks for leftovers. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface TestDatabase {
  db: Db;
  url: string;
  name: string;
  drop: () => Promise<void>;
}

function urlFor(name: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates an empty database named after the test file (plus a random suffix), optionally migrated. Call
 * drop() in afterAll.
 */
export async function createTestDatabase(label: string, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = `test_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = urlFor(name);
  const db = createDb(url, { max: 5 });
  if (options.migrate !== false) await migrateToLatest(db);
  return {
    db,
    url,
    name,
    drop: async () => {
      await db.destroy();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
    },
  };
}
