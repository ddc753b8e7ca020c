import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describeSettings, envExample, loadDotEnv } from './config.js';
import { checkHealth, containerCommand, HEALTHCHECK_USAGE } from './healthcheck.js';
import { printHelp, wantsHelp } from './lib/cli-help.js';
import { RESOLVER_NODE_FLAGS } from './resolver/node-flags.js';

/**
 * One entry for every part and tool, for the Docker image (its ENTRYPOINT) and for the npm scripts:
 * `node dist/src/cli.js <command> [arguments]`. It runs the built code only, so it works where no
 * TypeScript compiler is installed, and it gives the resolver its V8 flags however it is started.
 */
interface Command {
  entry: URL;
  about: string;
  /** Arguments placed before the user's, e.g. the db tool's own sub-command. */
  args?: string[];
  nodeFlags?: readonly string[];
}

const commands: Record<string, Command> = {
  start: { entry: new URL('./main.js', import.meta.url), about: 'prepare the database and run all three parts (default)' },
  cluster: { entry: new URL('./cluster.js', import.meta.url), about: 'prepare the database and run 2 of each part behind HAProxy' },
  resolver: { entry: new URL('./resolver/main.js', import.meta.url), about: 'the resolver area alone', nodeFlags: RESOLVER_NODE_FLAGS },
  registry: { entry: new URL('./registry/main.js', import.meta.url), about: 'the registry area alone' },
  worker: { entry: new URL('../workers/main.js', import.meta.url), about: 'one worker process' },
  satellite: {
    entry: new URL('./satellite/main.js', import.meta.url),
    about: 'a satellite resolver: no database, follows SATELLITE_UPSTREAM_URL',
    nodeFlags: RESOLVER_NODE_FLAGS,
  },
  migrate: { entry: new URL('./db/cli.js', import.meta.url), args: ['migrate'], about: 'create and migrate the database' },
  rollback: { entry: new URL('./db/cli.js', import.meta.url), args: ['rollback'], about: 'undo the last batch of migrations (--all: every one)' },
  status: { entry: new URL('./db/cli.js', import.meta.url), args: ['status'], about: 'list applied and pending migrations' },
  import: { entry: new URL('./importer/cli.js', import.meta.url), about: 'import a registry dataset: import <file-or-URL> [--prune] [--synonyms <file>]' },
  'reference-prefixes': {
    entry: new URL('./importer/reference-prefixes-cli.js', import.meta.url),
    about: "load another registry's prefixes: reference-prefixes --source <name> <file> [--format json|tsv|csv]",
  },
  linkcheck: { entry: new URL('./link-check/cli.js', import.meta.url), about: 'check every provider now: linkcheck [--prefix P] [--wait] [--spread D] [--timeout D]' },
};

/** The commands cli.ts answers itself, after those of the table above. */
const OWN_COMMANDS: [string, string][] = [
  ['settings', 'print every setting with its default, as a .env file'],
  ['healthcheck', "healthcheck [command]: exit 0 when the command's areas answer /health/live (the image's HEALTHCHECK)"],
  ['openapi', "openapi --area resolver|registry: print the area's OpenAPI document"],
];

const USAGE = ((): string => {
  const rows: [string, string][] = [...Object.entries(commands).map(([name, c]): [string, string] => [name, c.about]), ...OWN_COMMANDS];
  const width = Math.max(...rows.map(([name]) => name.length));
  return [
    'Usage: node dist/src/cli.js <command> [arguments]   (docker run <image> <command> [arguments])',
    ...rows.map(([name, about]) => `  ${name.padEnd(width)}  ${about}`),
    '`<command> --help` shows the usage of one command.',
  ].join('\n');
})();

/** Runs the entry in a child node with the flags it needs, passing signals on and its exit code back. */
function runWithFlags(entry: string, flags: readonly string[], args: string[]): void {
  const child = spawn(process.execPath, [...process.execArgv, ...flags, entry, ...args], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

async function main(): Promise<void> {
  try {
    loadDotEnv();
  } catch (error) {
    process.stderr.write(`Cannot read .env: ${(error as Error).message}\n`);
    process.exit(1);
  }
  const [name = 'start', ...rest] = process.argv.slice(2);
  if (name === '--help' || name === '-h' || name === 'help') return printHelp(USAGE);
  if (name === 'settings') {
    process.stdout.write(envExample());
    return;
  }
  if (name === 'openapi') {
    // Loaded only here: the document's modules are many, and the other commands need none of them.
    const { areaOfArguments, OPENAPI_USAGE, printOpenApiDocument } = await import('./openapi/cli.js');
    if (wantsHelp(rest)) return printHelp(OPENAPI_USAGE, describeSettings(['PUBLIC_RESOLVER_URL', 'PUBLIC_REGISTRY_URL']));
    const area = areaOfArguments(rest);
    if (!area) {
      process.stderr.write(`${OPENAPI_USAGE}\n`);
      process.exit(2);
    }
    return printOpenApiDocument(area);
  }
  if (name === 'healthcheck') {
    if (wantsHelp(rest)) return printHelp(HEALTHCHECK_USAGE, describeSettings(['RESOLVER_PORT', 'REGISTRY_PORT']));
    const checked = rest[0] ?? containerCommand();
    // A typo must not pass as a command with nothing to check: the container would always look healthy.
    if (rest.length > 1 || !Object.hasOwn(commands, checked)) {
      process.stderr.write(`healthcheck: unknown command ${JSON.stringify(checked)} (one of ${Object.keys(commands).join(', ')}).\n${HEALTHCHECK_USAGE}\n`);
      process.exit(2);
    }
    const problems = await checkHealth(checked);
    if (problems.length) process.stderr.write(`unhealthy: ${problems.join('; ')}\n`);
    process.exit(problems.length ? 1 : 0);
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!command) {
    process.stderr.write(`Unknown command ${JSON.stringify(name)}.\n${USAGE}\n`);
    process.exit(2);
  }
  const entry = fileURLToPath(command.entry);
  const args = [...(command.args ?? []), ...rest];
  const missingFlags = (command.nodeFlags ?? []).filter((flag) => !process.execArgv.includes(flag));
  if (missingFlags.length) return runWithFlags(entry, missingFlags, args);
  // The entry reads its own arguments from process.argv, as when it is run directly.
  process.argv = [process.argv[0] as string, entry, ...args];
  await import(command.entry.href);
}

await main();
