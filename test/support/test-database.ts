import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { createDb, migrateToLatest, type Db } from '../../src/db/knex.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { keepPatternVerdicts } from '../../src/importer/pattern-verdicts.js';
import { readDataset, validateNamespaces } from '../../src/importer/read-dataset.js';
import { ROOT } from './processes.js';

/** The shared Postgres of this machine (or CI); each test file gets a database of its own on it. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * This jest worker's own Redis database, one of those jest's globalSetup (global-setup.ts) claims and checks
 * for leftovers; files run one at a time in a worker, so no two files running at once share one.
 */
export const TEST_REDIS_URL = ((): string => {
  const claimed = process.env.TEST_REDIS_URLS?.split(',').filter(Boolean) ?? [];
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');
  return claimed[(worker - 1) % Math.max(1, claimed.length)] ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
})();

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

const TEMPLATE_PREFIX = 'test_template_';
const DUPLICATE_DATABASE = '42P04';
const MISSING_DATABASE = '3D000';
let templateOf: Promise<string> | undefined;

/** A query listing templates to drop once a new one is complete, and its parameters. */
type StaleTemplates = [string, unknown[]];

/**
 * Makes the template `name` (a copy of `from`, or empty) and fills it, under a name of its own that is renamed
 * when complete, so a run that finds the name finds it whole, and two runs building it at once both end up
 * copying the one that was renamed first. Then drops the templates `stale` lists; one that another run is
 * copying right now stays for a later run.
 */
async function buildTemplate(server: string, name: string, from: string | undefined, fill: (db: Db) => Promise<unknown>, stale: StaleTemplates): Promise<void> {
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  const copy = from ? ` TEMPLATE ${pg.escapeIdentifier(from)}` : '';
  await admin(server, (c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(building)}${copy}`));
  const db = createDb(urlFor(server, building), { max: 1 });
  try {
    await fill(db);
  } finally {
    await db.destroy();
  }
  await admin(server, async (c) => {
    try {
      await c.query(`ALTER DATABASE ${pg.escapeIdentifier(building)} RENAME TO ${pg.escapeIdentifier(name)}`);
    } catch (error) {
      if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
      await c.query(`DROP DATABASE ${pg.escapeIdentifier(building)}`);
    }
    const listed = await c.query<{ datname: string }>(stale[0], stale[1]);
    for (const { datname } of listed.rows) await c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(datname)}`).catch(() => undefined);
  });
}

/** A digest of every migration file: a template is only ever a copy of exactly these migrations. */
function migrationsDigest(): string {
  const dir = path.join(ROOT, 'migrations');
  const hash = createHash('sha256');
  const files = (readdirSync(dir, { recursive: true }) as string[]).filter((file) => statSync(path.join(dir, file)).isFile()).sort();
  for (const file of files) hash.update(file).update('\0').update(readFileSync(path.join(dir, file))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The migrated template database of the current migrations, made once and kept between runs (its name holds
 * the migrations' digest, so a changed migration makes a new one and the old ones are dropped).
 */
function migratedTemplate(server: string): Promise<string> {
  templateOf ??= (async () => {
    const name = `${TEMPLATE_PREFIX}${migrationsDigest()}`;
    const found = await admin(server, (c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
    if (found.rowCount === 0) {
      // Finished templates of older migrations.
      const stale: StaleTemplates = ["SELECT datname FROM pg_database WHERE datname ~ '^test_template_[0-9a-f]{16}$' AND datname <> $1", [name]];
      await buildTemplate(server, name, undefined, migrateToLatest, stale);
    }
    return name;
  })();
  return templateOf;
}

const loadedTemplates = new Map<string, Promise<string>>();

function fileDigest(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex').slice(0, 16);
}

/**
 * The template of the current migrations with `file` imported, made once and kept between runs like the
 * migrated one (its name holds both digests). Six files test on the real registry, whose import takes
 * seconds; a copy of this takes a fraction of that.
 */
function loadedTemplate(server: string, file: string): Promise<string> {
  let template = loadedTemplates.get(file);
  if (template === undefined) {
    template = (async () => {
      const migrated = await migratedTemplate(server);
      const name = `${migrated}_${fileDigest(file)}`;
      const found = await admin(server, (c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]));
      if (found.rowCount !== 0) return name;
      // Loaded templates of older migrations (a changed dataset file leaves its old template to a later clean-up).
      const stale: StaleTemplates = [
        "SELECT datname FROM pg_database WHERE datname ~ '^test_template_[0-9a-f]{16}_[0-9a-f]{16}$' AND datname NOT LIKE $1",
        [`${migrated}\\_%`],
      ];
      // With the patterns' ReDoS verdicts, as `npm run registry:import` keeps them: the resolvers of every
      // file copying the template read them instead of starting the checker.
      await buildTemplate(server, name, migrated, (db) => loadSample(db, { file }).then(() => keepPatternVerdicts(db)), stale);
      return name;
    })();
    loadedTemplates.set(file, template);
  }
  return template;
}

/**
 * Creates an empty database named after the test file (plus a random suffix), optionally migrated, and
 * returns it with its URL. Call drop() in afterAll. With `server` (a Postgres cluster of the
 * test's own, for fault drills) drop() only closes the pool: the database goes with the cluster, which may
 * be stopped by then. With `dataset`, the database holds that file as `loadSample` imports it.
 */
export async function createTestDatabase(
  label: string,
  options: { migrate?: boolean; server?: string; dataset?: string } = {},
): Promise<TestDatabase> {
  const server = options.server ?? TEST_POSTGRES_URL;
  const name = `test_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  // On the shared server a migrated database is a copy of the run's template: copying takes a fraction of
  // running every migration again in each of the ~70 files that ask for one.
  const shared = options.server === undefined;
  const templateFor = () =>
    options.migrate === false || !shared ? undefined : options.dataset ? loadedTemplate(server, options.dataset) : migratedTemplate(server);
  let template = await templateFor();
  const create = () => admin(server, (c) => c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}${template ? ` TEMPLATE ${pg.escapeIdentifier(template)}` : ''}`));
  try {
    await create();
  } catch (error) {
    // A run of other migrations (another checkout's) dropped the template since this run found it: make it again.
    if (!template || (error as { code?: string }).code !== MISSING_DATABASE) throw error;
    templateOf = undefined;
    loadedTemplates.clear();
    template = await templateFor();
    await create();
  }
  const url = urlFor(server, name);
  const db = createDb(url, { max: 5 });
  if (options.migrate !== false && !template) await migrateToLatest(db);
  if (options.dataset && !shared) await loadSample(db, { file: options.dataset });
  return {
    db,
    url,
    name,
    drop: async () => {
      await db.destroy();
      if (shared) await admin(server, (c) => c.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`));
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
