import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { migrationSource } from '../../migrations/index.js';
import { knexSnakeCaseMappers } from './snake-case-mappers.js';
// The table row types (knex/types/tables), for every file that queries through a Db.
import type {} from './tables.js';

// bigint ids come back as numbers: every id of the registry fits well inside 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number.parseInt(value, 10));
// Calendar days stay 'YYYY-MM-DD' strings: a Date would shift them by the process's time zone.
pg.types.setTypeParser(pg.types.builtins.DATE, (value: string) => value);

export type Db = Knex;

/**
 * How long opening one connection may take. A server that accepts the TCP connection but never answers
 * (hung, or half-way through a failover) would otherwise hold every request until the 10 s acquire timeout;
 * with this the pool gives up on it first, and the request answers 503 within a few seconds.
 */
export const CONNECT_TIMEOUT_MS = 3000;

/** One knex instance per process; columns are snake_case in SQL and camelCase everywhere in the code. */
export function createDb(databaseUrl: string, pool: { min?: number; max?: number } = {}): Db {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: databaseUrl, application_name: 'curie-resolver', connectionTimeoutMillis: CONNECT_TIMEOUT_MS },
    pool: { min: pool.min ?? 0, max: pool.max ?? 10 },
    acquireConnectionTimeout: 10000,
    migrations: { migrationSource, tableName: 'knex_migrations' },
    // Knex would print pool errors with console.log; they reach callers as rejected queries anyway.
    log: { warn: () => undefined, error: () => undefined, deprecate: () => undefined, debug: () => undefined },
    ...knexSnakeCaseMappers(),
  });
}

/** Runs `use` on a knex instance of its own, closed however `use` ends. */
export async function withDb<T>(databaseUrl: string, pool: { min?: number; max?: number }, use: (db: Db) => Promise<T>): Promise<T> {
  const db = createDb(databaseUrl, pool);
  try {
    return await use(db);
  } finally {
    await db.destroy();
  }
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}
