import { ConfigError, describeSettings, loadConfig } from '../config.js';
import { runCommand } from '../lib/cli-help.js';
import { ensureDatabase } from './ensure-database.js';
import { migrateToLatest, withDb, type Db } from './knex.js';
import { postgresFailureMessage } from './postgres-failure.js';

/**
 * Runs a one-shot tool on the database named by DATABASE_URL (migrate, import): `--help` lists that one
 * setting, the only one it reads; a bad setting is printed as loadConfig words it, any other failure as `describeFailure` does.
 */
export function runDatabaseTool<T>(tool: {
  usage: string;
  parse: (args: string[]) => T | null;
  run: (parsed: T, databaseUrl: string) => Promise<number>;
  describeFailure: (error: Error) => string;
}): void {
  runCommand({
    usage: tool.usage,
    settings: describeSettings(['DATABASE_URL']),
    parse: tool.parse,
    run: (parsed) => tool.run(parsed, loadConfig().DATABASE_URL),
    describeFailure: (error) => (error instanceof ConfigError ? error.message : tool.describeFailure(error)),
  });
}

/**
 * What a loading tool does once its input is checked: creates the database when missing, migrates it and
 * runs `use` on it (two connections). An unreachable server ends the tool with exit code 1 and the
 * readable message of postgres-failure.ts instead of a stack trace.
 */
export async function withMigratedDatabase(databaseUrl: string, use: (db: Db) => Promise<number>): Promise<number> {
  try {
    await ensureDatabase(databaseUrl);
  } catch (error) {
    process.stderr.write(`${postgresFailureMessage(databaseUrl, error)}\n`);
    return 1;
  }
  return withDb(databaseUrl, { max: 2 }, async (db) => {
    await migrateToLatest(db);
    return use(db);
  });
}
