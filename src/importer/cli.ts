import { runDatabaseTool, withMigratedDatabase } from '../db/database-tool.js';
import type { DatasetNamespace } from './dataset.schema.js';
import { formatSummary } from './format-summary.js';
import { importRegistry } from './import-registry.js';
import { formatPatternVerdicts, keepPatternVerdictsAfterImport } from './pattern-verdicts.js';
import { formatSynonymSummary, importSynonyms, validateSynonymFile, type SynonymFile } from './import-synonyms.js';
import { ImportFormatError, readDataset, validateNamespaces } from './read-dataset.js';

/**
 * `npm run registry:import -- <file-or-URL> [--prune] [--synonyms <file>]`: loads a reference registry
 * dataset into the database named by DATABASE_URL (creating and migrating it when needed), then, when given,
 * a prefix-synonym extension file (import-synonyms.ts); `--synonyms <file>` alone loads only the synonyms.
 * Exit codes: 0 imported, 1 rejected or failed (nothing changed), 2 usage.
 */
const USAGE = [
  'Usage: npm run registry:import -- <file-or-URL> [--prune] [--synonyms <file>]   (node dist/src/cli.js import ...; in the Docker image: import ...)',
  '       npm run registry:import -- --synonyms <file>   (the synonyms alone)',
  '  <file-or-URL>      a registry dataset: a getResolverDataset answer or a bare array of namespaces, as a file or an https:// URL',
  '  --prune            also delete namespaces, resources and institutions the file no longer has',
  '  --synonyms <file>  prefix synonyms, a JSON object { "taxonomy": ["ncbitaxon", "taxon"], ... } (file or https:// URL);',
  '                     each namespace listed gets exactly these synonyms, after the dataset when one is given',
].join('\n');

interface ImportArguments {
  source: string | null;
  prune: boolean;
  synonyms: string | null;
}

function parseArguments(args: string[]): ImportArguments | null {
  const parsed: ImportArguments = { source: null, prune: false, synonyms: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--prune') parsed.prune = true;
    else if (arg === '--synonyms' && i + 1 < args.length && parsed.synonyms === null) parsed.synonyms = args[++i]!;
    else if (arg.startsWith('--synonyms=') && parsed.synonyms === null) parsed.synonyms = arg.slice('--synonyms='.length);
    else if (arg.startsWith('--') || parsed.source !== null) return null;
    else parsed.source = arg;
  }
  if (parsed.source === null && (parsed.synonyms === null || parsed.prune)) return null;
  return parsed;
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

async function loadSynonyms(source: string): Promise<SynonymFile> {
  try {
    return validateSynonymFile(await readDataset(source));
  } catch (error) {
    if (error instanceof ImportFormatError) throw new ImportFormatError(`${source}: ${error.message}`);
    throw new Error(`Cannot read ${source}: ${(error as Error).message}`, { cause: error });
  }
}

async function run(parsed: ImportArguments, databaseUrl: string): Promise<number> {
  const started = performance.now();
  // Every file is checked before the database is even opened: a bad file changes nothing.
  const namespaces = parsed.source === null ? null : await load(parsed.source);
  const synonyms = parsed.synonyms === null ? null : await loadSynonyms(parsed.synonyms);
  return withMigratedDatabase(databaseUrl, async (db) => {
    const lines: string[] = [];
    if (namespaces !== null) {
      const onProgress = process.stderr.isTTY ? showProgress : undefined;
      const summary = await importRegistry(db, namespaces, { prune: parsed.prune, onProgress });
      if (onProgress) process.stderr.write('\n');
      lines.push(...formatSummary(summary));
      lines.push(formatPatternVerdicts(await keepPatternVerdictsAfterImport(db)));
    }
    if (synonyms !== null) lines.push(...formatSynonymSummary(await importSynonyms(db, synonyms)));
    const seconds = ((performance.now() - started) / 1000).toFixed(2);
    const what = [parsed.source, parsed.synonyms].filter((s) => s !== null).join(' and ');
    process.stdout.write(`Imported ${what} in ${seconds} s\n${lines.join('\n')}\n`);
    return 0;
  });
}

runDatabaseTool({
  usage: USAGE,
  parse: parseArguments,
  run,
  describeFailure: (error) => (error instanceof ImportFormatError ? `Import rejected: ${error.message}` : `Import failed: ${error.message}`),
});
