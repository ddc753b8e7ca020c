import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ConfigError, describeConfig, loadConfig, type Config } from './config.js';
import { ensureDatabase } from './db/ensure-database.js';
import { migrateToLatest } from './db/knex.js';
import { seedSampleRegistryIfEmpty } from './importer/seed-sample.js';
import { connectPostgres, connectRedis } from './bootstrap/connect.js';
import { printHelp, wantsHelp } from './lib/cli-help.js';
import { postgresFailureMessage } from './db/postgres-failure.js';
import { createLogger } from './lib/logger.js';
import { StartupError } from './bootstrap/process-runner.js';
import { RESOLVER_NODE_FLAGS } from './resolver/node-flags.js';

/**
 * `npm start`: prepares the database (create, migrate, seed when empty), checks Redis, then runs the
 * resolver area, the registry area and the worker as three child processes, the same entries operators
 * start separately to scale each part. Ctrl-C or SIGTERM stops all three.
 */
const parts = [
  { name: 'resolver', entry: new URL('./resolver/main.js', import.meta.url), flags: RESOLVER_NODE_FLAGS },
  { name: 'registry', entry: new URL('./registry/main.js', import.meta.url), flags: [] },
  { name: 'worker', entry: new URL('../workers/main.js', import.meta.url), flags: [] },
];

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

async function prepare(config: Readonly<Config>): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL, 'start');
  try {
    if (await ensureDatabase(config.DATABASE_URL)) logger.info('created the database');
  } catch (error) {
    throw new StartupError(postgresFailureMessage(config.DATABASE_URL, error));
  }
  const db = await connectPostgres(config, { max: 2 });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) logger.info({ applied }, 'migrated the database');
    if (config.SEED_SAMPLE_REGISTRY) {
      const seeded = await seedSampleRegistryIfEmpty(db);
      if (seeded) logger.info(`the registry was empty: loaded the sample registry (${seeded} namespaces)`);
    }
  } finally {
    await db.destroy();
  }
  const redis = await connectRedis(config);
  redis.disconnect();
}

function startPart(part: (typeof parts)[number]): { child: ChildProcess; ready: Promise<string> } {
  const child = fork(fileURLToPath(part.entry), [], { stdio: 'inherit', execArgv: [...process.execArgv, ...part.flags] });
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${part.name} did not start within 60 s`)), 60000);
    child.on('message', (message: { type?: string; description?: string }) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.description ?? part.name);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${part.name} exited with code ${String(code)} while starting`));
    });
  });
  return { child, ready };
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
    await prepare(config);
  } catch (error) {
    fail(error instanceof StartupError ? error.message : `Start failed: ${(error as Error).stack ?? String(error)}`);
  }

  const children = parts.map((part) => ({ part, ...startPart(part) }));
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
      process.stderr.write(`${c.part.name} stopped unexpectedly (code ${String(code)}, signal ${String(signal)}); stopping the others\n`);
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
