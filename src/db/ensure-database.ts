import pg from 'pg';
import { databaseName } from '../config.js';

/**
 * Creating the database failed on a server that accepted the login to the database itself (or would
 * have, but for the database being missing): the cause is the creation, not the address or the login,
 * and the start-up message must say so (see postgres-failure.ts).
 */
export class CreateDatabaseError extends Error {
  override name = 'CreateDatabaseError';
  readonly code: string | undefined;

  constructor(
    readonly database: string,
    override readonly cause: pg.DatabaseError,
  ) {
    super(cause.message, { cause });
    this.code = cause.code;
  }
}

/** Connects to the database itself: false when the server says it does not exist (3D000). */
async function databaseExists(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === '3D000') return false;
    throw error;
  }
  await client.end();
  return true;
}

/**
 * Creates the database named in DATABASE_URL when it does not exist, connecting to the server's
 * `postgres` database to do so. Returns true when it had to create it. The database itself is tried
 * first, so a role that may only reach its own database starts without any other database.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  if (await databaseExists(databaseUrl)) return false;
  const name = databaseName(databaseUrl);
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw asCreateDatabaseError(name, error);
  }
  try {
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return true;
  } catch (error) {
    // Two processes starting at once may both try; the loser sees duplicate_database (42P04).
    if ((error as { code?: string }).code === '42P04') return false;
    throw asCreateDatabaseError(name, error);
  } finally {
    await client.end();
  }
}

/**
 * The server answered: no right to create databases (42501), no `postgres` database, or a login refused
 * there only. Errors without an answer (the server went away) stay as they are.
 */
function asCreateDatabaseError(name: string, error: unknown): unknown {
  return error instanceof pg.DatabaseError ? new CreateDatabaseError(name, error) : error;
}
