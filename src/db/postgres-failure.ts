import pg from 'pg';
import { databaseName } from '../config.js';
import { printableUrl, reasonOf } from '../lib/printable-url.js';
import { withTimeout } from '../lib/with-timeout.js';
import { CreateDatabaseError } from './ensure-database.js';
import type { Db } from './knex.js';

export function pingPostgres(db: Db, timeoutMs = 2000): Promise<void> {
  return withTimeout(db.raw('SELECT 1').then(() => undefined), timeoutMs, 'Postgres');
}

/** What went wrong when connecting to Postgres, told apart by what the user has to change. */
export type PostgresFailure = 'unreachable' | 'login-refused' | 'database-missing' | 'create-denied' | 'refused';

// invalid_password, and invalid_authorization_specification (the role does not exist, no pg_hba.conf
// entry for it, or the server asked for a password and none was given).
const LOGIN_REFUSED = new Set(['28P01', '28000']);

export function classifyPostgresFailure(cause: unknown): PostgresFailure {
  if (cause instanceof CreateDatabaseError) return cause.code === '42501' ? 'create-denied' : 'refused';
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && LOGIN_REFUSED.has(code)) return 'login-refused';
  if (code === '3D000') return 'database-missing';
  if (cause instanceof pg.DatabaseError) return 'refused';
  // pg's own error when the server asks for a SCRAM password and DATABASE_URL has none.
  if (/client password must be/.test(reasonOf(cause))) return 'login-refused';
  return 'unreachable';
}

/**
 * What a new user needs when Postgres does not let the service start: where we looked, what the server
 * said, and what to change (start the server, fix DATABASE_URL's user or password, create the database).
 * The password is never part of it.
 */
export function postgresFailureMessage(databaseUrl: string, cause: unknown): string {
  const at = printableUrl(databaseUrl);
  const url = new URL(databaseUrl);
  const user = decodeURIComponent(url.username);
  const userName = user ? `user "${user}"` : 'the default user (DATABASE_URL names none)';
  const database = cause instanceof CreateDatabaseError ? cause.database : databaseName(databaseUrl);
  switch (classifyPostgresFailure(cause)) {
    case 'login-refused': {
      const said = LOGIN_REFUSED.has((cause as { code?: string }).code ?? '') ? reasonOf(cause) : 'it asks for a password and DATABASE_URL has none';
      return [
        `PostgreSQL at ${at} answered but refused the login of ${userName}: ${said}.`,
        'Check the user name and password in DATABASE_URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE,',
        'special characters percent-encoded), or create that role on the server as a superuser',
        `(\`CREATE ROLE ${pg.escapeIdentifier(user || 'USER')} LOGIN PASSWORD '...'\`), and check that pg_hba.conf lets it connect from this host.`,
      ].join('\n');
    }
    case 'database-missing':
      return [
        `PostgreSQL at ${at} answered but has no database "${database}": ${reasonOf(cause)}.`,
        '`npm start` creates it, migrates it and loads the sample registry; the parts started on their own',
        '(`npm run start:resolver`, `start:registry`, `start:worker`) expect it to exist, migrated.',
        'Run `npm start` or `npm run db:migrate` once, or point DATABASE_URL at an existing database.',
      ].join('\n');
    case 'create-denied':
      return [
        `PostgreSQL at ${at} has no database "${database}", and ${userName} may not create it: ${reasonOf(cause)}.`,
        `Have a superuser create it for that user (\`CREATE DATABASE ${pg.escapeIdentifier(database)} OWNER ${pg.escapeIdentifier(user || 'USER')}\`)`,
        `or let the user create databases (\`ALTER ROLE ${pg.escapeIdentifier(user || 'USER')} CREATEDB\`), or point DATABASE_URL at an existing database.`,
      ].join('\n');
    case 'refused': {
      const code = (cause as { code?: string }).code;
      const what = cause instanceof CreateDatabaseError ? `could not create database "${database}"` : 'refused the connection';
      return `PostgreSQL at ${at} answered but ${what}: ${reasonOf(cause)}${code ? ` (SQLSTATE ${code})` : ''}.`;
    }
    case 'unreachable':
      return [
        `Cannot reach PostgreSQL at ${at}: ${reasonOf(cause)}.`,
        'Start it with `docker compose up -d postgres`, or with your system service',
        '(`sudo systemctl start postgresql`, or `pg_ctlcluster <version> main start` on Debian),',
        'or point DATABASE_URL at a running server.',
      ].join('\n');
  }
}
