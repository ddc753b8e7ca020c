import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startOwnPostgres, type OwnPostgres } from '../support/postgres-cluster.js';
import { describeRequiring, postgresServerBinaries } from '../support/requirements.js';
import { freePort, spawnNode } from '../support/processes.js';
import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '../support/test-database.js';

// The compiled entries as operators start them: `npm start` (which creates the database) and the parts
// started on their own (which do not). Each must say what is wrong with Postgres, not just "cannot reach".
const NPM_START = 'dist/src/main.js';
const PARTS = { resolver: 'dist/src/resolver/main.js', registry: 'dist/src/registry/main.js', worker: 'dist/workers/main.js' };

const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;

function sharedServerUrl(user: string, database: string, password?: string): string {
  const url = new URL(TEST_POSTGRES_URL);
  url.username = user;
  url.password = password ?? '';
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T extends pg.QueryResultRow>(sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return (await admin('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length > 0;
}

async function startAndFail(entry: string, databaseUrl: string): Promise<string> {
  const run = spawnNode(entry, { DATABASE_URL: databaseUrl, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'warn' });
  const { code } = await run.exited;
  expect(code).toBe(1);
  return run.output();
}

describe('start-up when Postgres does not let the service in', () => {
  it('says Postgres cannot be reached when nothing listens on the port, and how to start it', async () => {
    const port = await freePort();
    const output = await startAndFail(PARTS.resolver, `postgres://postgres:hunter2@127.0.0.1:${port}/curie_resolver`);
    expect(output).toContain(`Cannot reach PostgreSQL at postgres://postgres:***@127.0.0.1:${port}/curie_resolver`);
    expect(output).toMatch(/docker compose up -d postgres/);
    expect(output).not.toContain('hunter2');
  });

  describe('on the shared server', () => {
    const missingRole = `no_such_role_${suffix}`;
    const password = `pw-${randomBytes(6).toString('hex')}`;
    const missingDatabase = `no_such_db_${suffix}`;
    const roleWithoutCreatedb = `no_createdb_${suffix}`;

    beforeAll(async () => {
      await admin(`CREATE ROLE ${roleWithoutCreatedb} LOGIN NOCREATEDB`);
    });
    afterAll(async () => {
      await admin(`DROP DATABASE IF EXISTS ${missingDatabase} WITH (FORCE)`);
      await admin(`DROP ROLE IF EXISTS ${roleWithoutCreatedb}`);
    });

    it.each([
      ['npm start', NPM_START],
      ['the registry part', PARTS.registry],
    ])('through %s, says the server refused the login of a role that does not exist, naming the user, never the password', async (_, entry) => {
      const output = await startAndFail(entry, sharedServerUrl(missingRole, 'curie_resolver', password));
      expect(output).toContain(`answered but refused the login of user "${missingRole}": role "${missingRole}" does not exist.`);
      expect(output).toMatch(/Check the user name and password in DATABASE_URL/);
      expect(output).toContain(`postgres://${missingRole}:***@`);
      expect(output).not.toContain(password);
      expect(output).not.toMatch(/Cannot reach|docker compose/);
    });

    it.each([
      ['the worker part', PARTS.worker],
      ['the resolver part', PARTS.resolver],
    ])('through %s, names the missing database and says that npm start creates it', async (_, entry) => {
      const output = await startAndFail(entry, sharedServerUrl('postgres', missingDatabase));
      expect(output).toContain(`answered but has no database "${missingDatabase}"`);
      expect(output).toMatch(/`npm start` creates it/);
      expect(output).not.toMatch(/Cannot reach|docker compose/);
      // The parts never create it: only npm start (and the importer) do.
      expect(await databaseExists(missingDatabase)).toBe(false);
    });

    it('through npm start, says the user may not create the missing database and how to get it created', async () => {
      const output = await startAndFail(NPM_START, sharedServerUrl(roleWithoutCreatedb, missingDatabase));
      expect(output).toContain(`has no database "${missingDatabase}", and user "${roleWithoutCreatedb}" may not create it: permission denied to create database.`);
      expect(output).toContain(`ALTER ROLE "${roleWithoutCreatedb}" CREATEDB`);
      expect(output).not.toMatch(/Cannot reach|docker compose/);
      expect(await databaseExists(missingDatabase)).toBe(false);
    });
  });

  describeRequiring([postgresServerBinaries()], 'on a server that checks passwords', () => {
    const rightPassword = `right-${randomBytes(6).toString('hex')}`;
    const wrongPassword = `wrong-${randomBytes(6).toString('hex')}`;
    let cluster: OwnPostgres;

    beforeAll(async () => {
      cluster = await startOwnPostgres({ password: rightPassword });
    }, 60000);
    afterAll(() => cluster?.destroy());

    it('lets the right password in (the refusals below are about the password)', async () => {
      const client = new pg.Client({ connectionString: cluster.url('postgres', rightPassword) });
      await client.connect();
      await client.end();
    });

    it.each([
      ['npm start', NPM_START],
      ['the resolver part', PARTS.resolver],
    ])('through %s, says the server refused a wrong password, never printing it', async (_, entry) => {
      const output = await startAndFail(entry, cluster.url('curie_resolver', wrongPassword));
      expect(output).toContain('answered but refused the login of user "postgres": password authentication failed for user "postgres".');
      expect(output).toMatch(/Check the user name and password in DATABASE_URL/);
      expect(output).not.toContain(wrongPassword);
      expect(output).not.toContain(rightPassword);
      expect(output).not.toMatch(/Cannot reach|docker compose/);
    });

    it('says the server asks for a password when DATABASE_URL has none', async () => {
      const output = await startAndFail(PARTS.resolver, cluster.url('curie_resolver'));
      expect(output).toContain('answered but refused the login of user "postgres": it asks for a password and DATABASE_URL has none.');
      expect(output).not.toMatch(/Cannot reach|docker compose/);
    });
  });
});
