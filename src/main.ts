import { ConfigError, describeConfig, loadConfig, type Config } from './config.js';
import { forkPart, type PartKind } from './bootstrap/child-part.js';
import { prepareDatabase } from './bootstrap/prepare-database.js';
import { printHelp, wantsHelp } from './lib/cli-help.js';
import { StartupError } from './bootstrap/process-runner.js';

/**
 * `npm start`: prepares the database (create, migrate, seed when empty), checks Redis, then runs the
 * resolver area, the registry area and the worker as three child processes, the same entries operators
 * start separately to scale each part. Ctrl-C or SIGTERM stops all three.
 */
const parts: PartKind[] = ['resolver', 'registry', 'worker'];

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

const USAGE = [
  'Usage: npm start   (node dist/src/cli.js start; the Docker image\'s default command)',
  'Creates the database when missing, migrates it, loads the sample registry when the registry is empty,',
  'then runs the resolver area, the registry area and the worker process until Ctrl-C or SIGTERM.',
].join('\n');

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (wantsHelp(args)) {
    printHelp(USAGE, describeConfig());
    return;
  }
  if (args.length) fail(`unexpected argument ${JSON.stringify(args[0])}\n${USAGE}`);
  let config: Readonly<Config>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  try {
    await prepareDatabase(config);
  } catch (error) {
    fail(error instanceof StartupError ? error.message : `Start failed: ${(error as Error).stack ?? String(error)}`);
  }

  const children = parts.map((part) => forkPart(part, part));
  let stopping = false;
  const stopAll = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const alive = children.filter((c) => c.child.exitCode === null && c.child.signalCode === null);
    const force = setTimeout(() => {
      for (const c of alive) c.child.kill('SIGKILL');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS + 2000);
    force.unref();
    Promise.all(
      alive.map(
        (c) =>
          new Promise<void>((resolve) => {
            c.child.once('exit', () => resolve());
            c.child.kill('SIGTERM');
          }),
      ),
    ).then(() => {
      process.stdout.write('stopped\n');
      process.exit(exitCode);
    }, () => process.exit(1));
  };
  process.on('SIGINT', () => stopAll(0));
  process.on('SIGTERM', () => stopAll(0));

  for (const c of children) {
    c.child.on('exit', (code, signal) => {
      if (stopping) return;
      process.stderr.write(`${c.name} stopped unexpectedly (code ${String(code)}, signal ${String(signal)}); stopping the others\n`);
      stopAll(1);
    });
  }
  try {
    const descriptions = await Promise.all(children.map((c) => c.ready));
    process.stdout.write(
      [
        '',
        'curie-resolver is running:',
        ...descriptions.map((d) => `  ${d}`),
        `  try: curl ${config.PUBLIC_RESOLVER_URL}/health/ready   curl ${config.PUBLIC_REGISTRY_URL}/health/ready`,
        'Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    stopAll(1);
  }
}

await main();
