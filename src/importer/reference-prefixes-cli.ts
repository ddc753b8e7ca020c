import { readFile } from 'node:fs/promises';
import { guessFormat, PrefixListError, readPrefixList, SOURCE_NAME, type PrefixListFormat } from '../core/reference-prefix-list.js';
import { runDatabaseTool, withMigratedDatabase } from '../db/database-tool.js';
import { replaceReferencePrefixes } from '../db/reference-prefixes.js';

/**
 * `node dist/src/cli.js reference-prefixes --source <name> <file> [--format json|tsv|csv]` (issue 15 item
 * 6): loads another registry's prefix list into reference_prefixes, replacing what that source held, in
 * one transaction. Requested prefixes that collide with one of them are then warned about. Exit codes: 0
 * loaded, 1 rejected or failed (nothing changed), 2 usage.
 */
const USAGE = [
  'Usage: node dist/src/cli.js reference-prefixes --source <name> <file> [--format json|tsv|csv]   (in the Docker image: reference-prefixes ...)',
  '  --source <name>   the registry the list comes from (bioregistry, n2t, obofoundry, ...); its earlier list is replaced',
  '  <file>            the list: JSON ([{"prefix", "name"}], {prefix: name} or {prefix: {"name"}}), TSV or CSV with a prefix',
  '                    column and an optional name column (a header row names them; without one, prefix first, name second)',
  '  --format          json, tsv or csv; by default the file name\'s extension, else what the text looks like',
].join('\n');

interface Arguments {
  source: string;
  file: string;
  format: PrefixListFormat | null;
}

function parseArguments(args: string[]): Arguments | null {
  let source: string | null = null;
  let file: string | null = null;
  let format: PrefixListFormat | null = null;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--source' && i + 1 < args.length) source = args[++i]!;
    else if (arg === '--format' && i + 1 < args.length) {
      const value = args[++i]!.toLowerCase();
      if (value !== 'json' && value !== 'tsv' && value !== 'csv') return null;
      format = value;
    } else if (arg.startsWith('--') || file !== null) return null;
    else file = arg;
  }
  if (source === null || file === null || !SOURCE_NAME.test(source)) return null;
  return { source, file, format };
}

async function run(parsed: Arguments, databaseUrl: string): Promise<number> {
  const text = await readFile(parsed.file, 'utf8');
  // The whole list is read before the database is opened: a bad file changes nothing.
  const prefixes = readPrefixList(text, parsed.format ?? guessFormat(text, parsed.file));
  return withMigratedDatabase(databaseUrl, async (db) => {
    const { removed, loaded } = await replaceReferencePrefixes(db, parsed.source, prefixes);
    process.stdout.write(`Loaded ${loaded} prefixes of ${parsed.source} (replacing ${removed})\n`);
    return 0;
  });
}

runDatabaseTool({
  usage: USAGE,
  parse: parseArguments,
  run,
  describeFailure: (error) => (error instanceof PrefixListError ? `List rejected: ${error.message}` : `Load failed: ${error.message}`),
});
