import pg from 'pg';
import { databaseName } from '../config.js';

/**
 * Creates the database named in DATABASE_URL when it does not exist, connecting to the server's
 * `postgres` database to do so. Returns true when it had to create it.
 */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const name = databaseName(databaseUrl);
  const adminUrl = new URL(databaseUrl);
  adminUrl.pathname = '/postgres';
  const client = new pg.Client({ connectionString: adminUrl.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount) return false;
    await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    return true;
  } catch (error) {
    // Two processes starting at once may both try; the loser sees duplicate_database (42P04).
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}
