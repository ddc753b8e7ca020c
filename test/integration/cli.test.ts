import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, ROOT, spawnNode } from '../support/processes.js';
import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '../support/test-database.js';

const run = promisify(execFile);

/** Runs a documented npm script as a user types it; resolves with its output whatever its exit code. */
async function npmRun(script: string, env: Record<string, string>, args: string[] = []) {
  try {
    const { stdout, stderr } = await run('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('--help on every entry', () => {
  const entries = [
    'dist/src/cli.js',
    'dist/src/main.js',
    'dist/src/cluster.js',
    'dist/src/resolver/main.js',
    'dist/src/registry/main.js',
    'dist/workers/main.js',
    'dist/src/importer/cli.js',
    'dist/src/db/cli.js',
    'dist/src/link-check/cli.js',
  ];

  it.each(entries)('%s --help prints its usage and exits without starting anything', async (entry) => {
    // Settings that would make a started service fail or hang: a help answer must not even try.
    const port = await freePort();
    const child = spawnNode(entry, { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/none`, REDIS_URL: `redis://127.0.0.1:${port}` }, ['--help']);
    const { code } = await child.exited;
    expect(child.output()).toMatch(/^Usage: /);
    expect(code).toBe(0);
    // A deadline for a busy machine (each entry loads its modules), no measure of speed.
  }, 90_000);

  it('every command of the entry point prints its usage and its own settings with --help, on one screen', async () => {
    const commands = ['start', 'cluster', 'resolver', 'registry', 'worker', 'migrate', 'rollback', 'status', 'import', 'reference-prefixes', 'linkcheck', 'healthcheck', 'openapi'];
    // The processes start together; a generous deadline, as each loads its modules on a possibly busy machine.
    const outputs = await Promise.all(
      commands.map(async (command) => {
        const child = spawnNode('dist/src/cli.js', { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' }, [command, '--help']);
        const { code } = await child.exited;
        return { command, code, output: child.output() };
      }),
    );
    const help: Record<string, string> = {};
    for (const { command, code, output } of outputs) {
      help[command] = output;
      const lines = output.trimEnd().split('\n');
      expect([command, code, output.slice(0, 6), lines.length <= 40]).toEqual([command, 0, 'Usage:', true]);
      // The rest of the ~76 settings are one command away.
      expect([command, lines.at(-1)]).toEqual([command, 'Every setting with its default and meaning: node dist/src/cli.js settings']);
    }
    expect(help.import).toContain('DATABASE_URL');
    expect(help.import).not.toMatch(/OIDC_|RATE_LIMIT/);
  }, 120_000);

  it('lists every command with its description in one column, and so do the README and the Dockerfile', async () => {
    const child = spawnNode('dist/src/cli.js', {}, ['--help']);
    await child.exited;
    const rows = child.output().split('\n').filter((line) => /^ {2}\S/.test(line));
    const commands = rows.map((row) => row.trim().split(' ')[0]!);
    expect(commands).toEqual(expect.arrayContaining(['start', 'reference-prefixes', 'linkcheck', 'settings', 'healthcheck', 'openapi']));
    // Where each description starts: past the longest command name, whatever its length.
    const columns = new Set(rows.map((row) => /^ {2}\S+ +/.exec(row)![0].length));
    expect(columns.size).toBe(1);
    expect([...columns][0]).toBeGreaterThan(Math.max(...commands.map((name) => name.length)) + 2);

    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const dockerfileHeader = /^(#.*\n)+/.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))![0];
    expect(commands.filter((name) => !readme.includes(`| \`${name}`))).toEqual([]);
    expect(commands.filter((name) => !dockerfileHeader.includes(`\`${name}`))).toEqual([]);
  });

  it('refuses an unknown command or argument with the usage and exit code 2', async () => {
    const unknown = spawnNode('dist/src/cli.js', {}, ['serve']);
    expect((await unknown.exited).code).toBe(2);
    expect(unknown.output()).toMatch(/Unknown command "serve"[\s\S]*Usage:/);
    const resolver = spawnNode('dist/src/resolver/main.js', {}, ['--port=1']);
    expect((await resolver.exited).code).toBe(2);
    expect(resolver.output()).toMatch(/unexpected argument "--port=1"/);
  });
});

describe('healthcheck', () => {
  it('refuses a command it does not know, explains itself on --help, and finds a cluster that answers nothing unhealthy', async () => {
    const unknown = spawnNode('dist/src/cli.js', {}, ['healthcheck', 'bogus']);
    expect((await unknown.exited).code).toBe(2);
    expect(unknown.output()).toMatch(/unknown command "bogus"[\s\S]*Usage: /);

    const help = spawnNode('dist/src/cli.js', {}, ['healthcheck', '--help']);
    expect((await help.exited).code).toBe(0);
    expect(help.output()).toMatch(/^Usage: node dist\/src\/cli\.js healthcheck/);

    // The cluster's balancer listens on both areas' ports; here nothing does.
    const [resolverPort, registryPort] = [await freePort(), await freePort()];
    const cluster = spawnNode('dist/src/cli.js', { RESOLVER_PORT: String(resolverPort), REGISTRY_PORT: String(registryPort) }, ['healthcheck', 'cluster']);
    expect((await cluster.exited).code).toBe(1);
    expect(cluster.output()).toContain(`unhealthy: http://127.0.0.1:${resolverPort}/health/live`);
    expect(cluster.output()).toContain(`http://127.0.0.1:${registryPort}/health/live`);
  });
});

describe('a .env file', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'dot-env-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('in the folder the entry point runs in gives the settings the environment does not', async () => {
    const [fromFile, overridden, fromEnvironment] = [await freePort(), await freePort(), await freePort()];
    writeFileSync(path.join(folder, '.env'), `# cp .env.example .env, then edit\nRESOLVER_PORT=${fromFile}\nREGISTRY_PORT=${overridden}\n`);
    // The health check reads both ports and names those that do not answer: here, both.
    const checked = await run(process.execPath, [path.join(ROOT, 'dist/src/cli.js'), 'healthcheck', 'start'], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', REGISTRY_PORT: String(fromEnvironment) },
    }).then(
      ({ stderr }) => ({ code: 0, stderr }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`http://127.0.0.1:${fromFile}/health/live`);
    expect(checked.stderr).toContain(`http://127.0.0.1:${fromEnvironment}/health/live`);
    expect(checked.stderr).not.toContain(`:${overridden}/`);
  });
});

describe('npm run db:migrate, db:status and db:rollback', () => {
  const name = `test_db_cli_${process.pid}`;
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const env = { DATABASE_URL: url.toString(), REDIS_URL: TEST_REDIS_URL };

  afterAll(async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  });

  it('db:status on a database that does not exist says so, and does not create it', async () => {
    const missing = await npmRun('db:status', env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`has no database "${name}"`);
    expect(missing.stderr).toContain('npm run db:migrate');
  }, 90_000);

  it('creates and migrates a missing database, lists, rolls back and migrates again', async () => {
    const migrated = await npmRun('db:migrate', env);
    expect(migrated.stdout).toContain(`Created the database ${name}.`);
    expect(migrated.stdout).toMatch(/Applied (\d+) migration\(s\) as batch 1:/);
    expect(migrated.code).toBe(0);
    const count = Number(/Applied (\d+) migration/.exec(migrated.stdout)?.[1]);
    expect(count).toBeGreaterThan(5);

    const again = await npmRun('db:migrate', env);
    expect(again.stdout).toContain('nothing to apply');

    const status = await npmRun('db:status', env);
    expect(status.stdout).toContain(`Applied ${count}, pending 0.`);
    expect(status.stdout).toContain('applied  20261122000200_create_registry_tables');

    const rolledBack = await npmRun('db:rollback', env);
    expect(rolledBack.code).toBe(0);
    expect(rolledBack.stdout).toContain(`Rolled back batch 1, ${count} migration(s):`);
    const after = await npmRun('db:status', env);
    expect(after.stdout).toContain(`Applied 0, pending ${count}.`);
    expect(after.stdout).toContain('pending  20261122000200_create_registry_tables');

    expect((await npmRun('db:migrate', env)).code).toBe(0);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const tables = await client.query("SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'namespaces'");
    await client.end();
    expect(tables.rows[0].n).toBe(1);
  }, 90000);

  it('refuses an unknown sub-command with the usage', async () => {
    const wrong = await npmRun('db:rollback', env, ['--everything']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/Usage: /);
  }, 90_000);
});
