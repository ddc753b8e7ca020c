import { databaseName } from '../config.js';
import { runDatabaseTool } from './database-tool.js';
import { classifyPostgresFailure, postgresFailureMessage } from './postgres-failure.js';
import { ensureDatabase } from './ensure-database.js';
import { withDb, type Db } from './knex.js';

/**
 * `npm run db:migrate | db:rollback | db:status`: the schema of the database named by DATABASE_URL.
 * Exit codes: 0 done, 1 failed (the message says why), 2 usage.
 */
const USAGE = [
  'Usage: node dist/src/cli.js <migrate|rollback|status> [--all]',
  '  migrate           create the database when missing, then apply every pending migration (npm run db:migrate)',
  '  rollback          undo the last batch of migrations (npm run db:rollback)',
  '  rollback --all    undo every migration: the registry, requests and statistics are dropped',
  '  status            list applied and pending migrations (npm run db:status)',
].join('\n');

type Command = 'migrate' | 'rollback' | 'status';

function parseArguments(args: string[]): { command: Command; all: boolean } | null {
  const [command, ...rest] = args;
  if (command !== 'migrate' && command !== 'rollback' && command !== 'status') return null;
  const all = rest.length === 1 && rest[0] === '--all' && command === 'rollback';
  if (rest.length && !all) return null;
  return { command, all };
}

async function migrate(db: Db): Promise<string> {
  const [batch, applied] = (await db.migrate.latest()) as [number, string[]];
  if (!applied.length) return 'Already at the latest version; nothing to apply.';
  return [`Applied ${applied.length} migration(s) as batch ${batch}:`, ...applied.map((name) => `  ${name}`)].join('\n');
}

async function rollback(db: Db, all: boolean): Promise<string> {
  const [batch, undone] = (await db.migrate.rollback(undefined, all)) as [number, string[]];
  if (!undone.length) return 'Nothing to roll back: no migration is applied.';
  const what = all ? 'every migration' : `batch ${batch}`;
  return [`Rolled back ${what}, ${undone.length} migration(s):`, ...undone.map((name) => `  ${name}`)].join('\n');
}

async function status(db: Db): Promise<string> {
  // Pending entries are what the migration source lists: here, the names themselves (migrations/index.ts).
  const [applied, pending] = (await db.migrate.list()) as [{ name: string }[], string[]];
  const lines = [`Applied ${applied.length}, pending ${pending.length}.`];
  for (const m of applied) lines.push(`  applied  ${m.name}`);
  for (const name of pending) lines.push(`  pending  ${name}`);
  return lines.join('\n');
}

async function run(parsed: { command: Command; all: boolean }, databaseUrl: string): Promise<number> {
  try {
    // Only migrate creates the database: rolling back or listing a database that is not there would
    // create an empty one as a side effect.
    if (parsed.command === 'migrate' && (await ensureDatabase(databaseUrl))) {
      process.stdout.write(`Created the database ${databaseName(databaseUrl)}.\n`);
    }
  } catch (error) {
    process.stderr.write(`${postgresFailureMessage(databaseUrl, error)}\n`);
    return 1;
  }
  try {
    const report = await withDb(databaseUrl, { max: 1 }, (db) =>
      parsed.command === 'migrate' ? migrate(db) : parsed.command === 'rollback' ? rollback(db, parsed.all) : status(db),
    );
    process.stdout.write(`${report}\n`);
    return 0;
  } catch (error) {
    // A failing migration is an error of ours and keeps its own message; the rest is about the server.
    if ((error as { code?: string }).code === undefined || classifyPostgresFailure(error) === 'refused') throw error;
    process.stderr.write(`${postgresFailureMessage(databaseUrl, error)}\n`);
    return 1;
  }
}

runDatabaseTool({ usage: USAGE, parse: parseArguments, run, describeFailure: (error) => `Failed: ${error.message}` });
