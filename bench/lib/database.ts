import pg from 'pg';
import { createDb, migrateToLatest } from '../../src/db/knex.js';
import type { DatasetNamespace } from '../../src/importer/dataset.schema.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import type { ResultsHeader } from './results.js';
import { say } from './settings.js';

/** Reads and validates the dataset a suite measures with; `described` is what its results record of it. */
export async function readBenchDataset(datasetPath: string): Promise<{ namespaces: DatasetNamespace[]; described: ResultsHeader['dataset'] }> {
  say(`reading ${datasetPath}`);
  const namespaces = validateNamespaces(await readDataset(datasetPath));
  const resources = namespaces.reduce((sum, ns) => sum + ns.resources.length, 0);
  return { namespaces, described: { path: datasetPath, namespaces: namespaces.length, resources } };
}

/** The server's URL with another database name: the benchmark only ever writes to its own databases. */
export function databaseUrlFor(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(baseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrlFor(baseUrl, 'postgres'), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops (disconnecting whoever is still on it) and creates the database. */
export async function recreateDatabase(baseUrl: string, name: string): Promise<void> {
  await withAdmin(baseUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  });
}

export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  await withAdmin(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
}

/** Migrates the database to the latest schema and imports the dataset; returns the import's duration. */
export async function migrateAndImport(databaseUrl: string, namespaces: DatasetNamespace[]): Promise<{ importMs: number }> {
  const db = createDb(databaseUrl, { max: 2 });
  try {
    await migrateToLatest(db);
    const started = performance.now();
    await importRegistry(db, namespaces, {});
    return { importMs: Math.round(performance.now() - started) };
  } finally {
    await db.destroy();
  }
}
