import { runDatabaseTool } from '../db/database-tool.js';
import { ensureDatabase } from '../db/ensure-database.js';
import { migrateToLatest, withDb } from '../db/knex.js';
import { postgresFailureMessage } from '../db/postgres-failure.js';
import type { DatasetNamespace } from './dataset.schema.js';
import { formatSummary } from './format-summary.js';
import { importRegistry } from './import-registry.js';
import { ImportFormatError, readDataset, validateNamespaces } from './read-dataset.js';

/**
 * `npm run registry:import -- <file-or-URL> [--prune]`: loads a reference registry dataset into the
 * database named by DATABASE_URL (creating and migrating it when needed). Exit codes: 0 imported,
 * 1 rejected or failed (nothing changed), 2 usage.
 */
const USAGE = [
  'Usage: npm run registry:import -- <file-or-URL> [--prune]   (node dist/src/cli.js import ...; in the Docker image: import ...)',
  '  <file-or-URL>  a registry dataset: a getResolverDataset answer or a bare array of namespaces, as a file or an https:// URL',
  '  --prune        also delete namespaces, resources and institutions the file no longer has',
].join('\n');

function parseArguments(args: string[]): { source: string; prune: boolean } | null {
  const flags = args.filter((a) => a.startsWith('--'));
  const positional = args.filter((a) => !a.startsWith('--'));
  if (positional.length !== 1 || flags.some((f) => f !== '--prune')) return null;
  return { source: positional[0] as string, prune: flags.includes('--prune') };
}

function showProgress(done: number, total: number): void {
  process.stderr.write(`\rimporting records ${done}/${total}`);
}

async function load(source: string): Promise<DatasetNamespace[]> {
  try {
    return validateNamespaces(await readDataset(source));
  } catch (error) {
    if (error instanceof ImportFormatError) throw error;
    // fetch reports "fetch failed" and keeps the reason (refused, DNS, timeout) in its cause.
    const { message, cause } = error as Error & { cause?: Error };
    throw new Error(`Cannot read ${source}: ${message}${cause?.message ? ` (${cause.message})` : ''}`, { cause: error });
  }
}

async function run(parsed: { source: string; prune: boolean }, databaseUrl: string): Promise<number> {
  const started = performance.now();
  // The whole file is checked before the database is even opened: a bad file changes nothing.
  const namespaces = await load(parsed.source);
  try {
    await ensureDatabase(databaseUrl);
  } catch (error) {
    process.stderr.write(`${postgresFailureMessage(databaseUrl, error)}\n`);
    return 1;
  }
  return withDb(databaseUrl, { max: 2 }, async (db) => {
    await migrateToLatest(db);
    const onProgress = process.stderr.isTTY ? showProgress : undefined;
    const summary = await importRegistry(db, namespaces, { prune: parsed.prune, onProgress });
    if (onProgress) process.stderr.write('\n');
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    process.stdout.write(`Imported ${parsed.source} in ${seconds} s\n${formatSummary(summary).join('\n')}\n`);
    return 0;
  });
}

runDatabaseTool({
  usage: USAGE,
  parse: parseArguments,
  run,
  describeFailure: (error) => (error instanceof ImportFormatError ? `Import rejected: ${error.message}` : `Import failed: ${error.message}`),
});
