import { forkPart, stopParts, type PartKind } from './bootstrap/child-part.js';
import { partSettings } from './bootstrap/part-settings.js';
import { prepareDatabaseOrFail, startupConfig } from './bootstrap/startup.js';

/**
 * `npm start`: prepares the database (create, migrate, seed when empty), checks Redis, then runs the
 * resolver area, the registry area and the worker as three child processes, the same entries operators
 * start separately to scale each part. Ctrl-C or SIGTERM stops all three.
 */
const parts: PartKind[] = ['resolver', 'registry', 'worker'];

const USAGE = [
  'Usage: npm start   (node dist/src/cli.js start; the Docker image\'s default command)',
  'Creates the database when missing, migrates it, loads the sample registry when the registry is empty,',
  'then runs the resolver area, the registry area and the worker process until Ctrl-C or SIGTERM.',
].join('\n');

async function main(): Promise<void> {
  const config = startupConfig(USAGE, partSettings(parts));
  if (!config) return;
  await prepareDatabaseOrFail(config);

  const children = parts.map((part) => forkPart(part, part));
  let stopping = false;
  const stopAll = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    void stopParts(children, config.SHUTDOWN_TIMEOUT_MS + 2000).then(() => {
      process.stdout.write('stopped\n');
      process.exit(exitCode);
    });
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
