/**
 * The Docker image's runtime stage, laid out without Docker: the test reads the Dockerfile's last stage
 * and carries out its COPY, RUN and ENV lines into a temporary folder (the build stage's output made the
 * same way: production dependencies only, so no TypeScript compiler, and the compiled dist/), leaves the
 * code owned by root, and runs the image's entrypoint as an unprivileged user, as `USER node` would.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { freePort, ROOT } from '../support/processes.js';
import { describeRequiring } from '../support/requirements.js';
import { createTestDatabase, TEST_REDIS_URL, type TestDatabase } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

const UNPRIVILEGED = { uid: 65534, gid: 65534 }; // nobody:nogroup, standing in for the image's node user
const isRoot = process.getuid?.() === 0;

interface RuntimeStage {
  copies: { fromBuild: boolean; source: string; target: string }[];
  runs: string[];
  env: Record<string, string>;
  user?: string;
  volumes: string[];
  entrypoint: string[];
  cmd: string[];
  healthcheck: string[];
}

/** The instructions of the Dockerfile's last stage (continuation lines joined). */
function readRuntimeStage(): RuntimeStage {
  const text = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const lastFrom = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const stage: RuntimeStage = { copies: [], runs: [], env: {}, volumes: [], entrypoint: [], cmd: [], healthcheck: [] };
  for (const line of lines.slice(lastFrom + 1)) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    switch (keyword.toUpperCase()) {
      case 'COPY': {
        const fromBuild = rest[0] === '--from=build';
        const [source = '', target = ''] = fromBuild ? rest.slice(1) : rest;
        stage.copies.push({ fromBuild, source: source.replace(/^\/app\/?/, ''), target });
        break;
      }
      case 'RUN':
        stage.runs.push(args);
        break;
      case 'ENV':
        for (const pair of rest) {
          const [key = '', value = ''] = pair.split('=');
          stage.env[key] = value;
        }
        break;
      case 'USER':
        stage.user = args;
        break;
      case 'VOLUME':
        stage.volumes.push(...rest);
        break;
      case 'ENTRYPOINT':
        stage.entrypoint = JSON.parse(args) as string[];
        break;
      case 'CMD':
        stage.cmd = JSON.parse(args) as string[];
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3)) as string[];
        break;
    }
  }
  return stage;
}

const PRUNE_SCRIPT = 'scripts/prune-dev-optional.mjs';

/** What `npm ci && tsc && npm prune --omit=dev && node scripts/prune-dev-optional.mjs` leaves in the build stage's /app. */
function makeBuildOutput(dir: string): void {
  mkdirSync(dir);
  for (const file of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, file), path.join(dir, file));
  try {
    // The project's own install (what the build stage's `npm ci` makes), hard-linked rather than installed
    // again (a second or two instead of ~18 s of CPU), then pruned as the build stage prunes it. npm's hidden
    // lockfile goes first: npm rewrites that file in place, which would reach the project's through the link.
    execFileSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules')], { stdio: 'pipe' });
    rmSync(path.join(dir, 'node_modules', '.package-lock.json'), { force: true });
    execFileSync('npm', ['prune', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });
  } catch {
    // Another filesystem (no hard links across devices): install from the npm cache the project's `npm ci`
    // filled, which sends nothing over the network.
    rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
    execFileSync('npm', ['ci', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'pipe' });
  }
  execFileSync(process.execPath, [path.join(ROOT, PRUNE_SCRIPT), dir], { stdio: 'pipe' });
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'seeds'), path.join(dir, 'seeds'), { recursive: true });
}

function layOut(stage: RuntimeStage, buildDir: string, app: string): void {
  mkdirSync(app);
  for (const { fromBuild, source, target } of stage.copies) {
    const to = path.resolve(app, target);
    cpSync(path.join(fromBuild ? buildDir : ROOT, source), to === app ? path.join(app, path.basename(source)) : to, { recursive: true });
  }
  for (const run of stage.runs) {
    execFileSync('sh', ['-c', run.replaceAll('/app', app).replaceAll('node:node', `${UNPRIVILEGED.uid}:${UNPRIVILEGED.gid}`)]);
  }
}

const asRoot = { met: isRoot, need: 'root, to own the image layout as root and run the service as an unprivileged user' };

describeRequiring([asRoot], 'the Docker image layout', () => {
  let dir: string;
  let app: string;
  let stage: RuntimeStage;
  let t: TestDatabase;
  let env: Record<string, string>;
  const prefix = `test-docker-${process.pid}`;
  const curatorToken = randomBytes(24).toString('hex');
  const running: ChildProcess[] = [];

  /** Runs a command in the laid-out image as the unprivileged user, with only the image's environment. */
  function asServiceUser(argv: string[]): ChildProcess {
    const vars = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    return spawn(
      'setpriv',
      ['--reuid', String(UNPRIVILEGED.uid), '--regid', String(UNPRIVILEGED.gid), '--clear-groups', '--', 'env', '-i', ...vars, ...argv],
      { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] },
    );
  }

  async function runToEnd(argv: string[]): Promise<{ code: number | null; output: string }> {
    const child = asServiceUser(argv);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    return { code, output };
  }

  beforeAll(async () => {
    stage = readRuntimeStage();
    dir = mkdtempSync(path.join(tmpdir(), 'docker-layout-'));
    chmodSync(dir, 0o755);
    makeBuildOutput(path.join(dir, 'build'));
    app = path.join(dir, 'app');
    layOut(stage, path.join(dir, 'build'), app);
    const home = path.join(dir, 'home');
    mkdirSync(home);
    execFileSync('chown', [`${UNPRIVILEGED.uid}:${UNPRIVILEGED.gid}`, home]);
    t = await createTestDatabase('docker_layout', { migrate: false });
    const [resolverPort, registryPort] = [await freePort(), await freePort()];
    env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      ...stage.env,
      DATABASE_URL: t.url,
      REDIS_URL: TEST_REDIS_URL,
      QUEUE_PREFIX: prefix,
      HOST: '127.0.0.1',
      RESOLVER_PORT: String(resolverPort),
      REGISTRY_PORT: String(registryPort),
      PUBLIC_REGISTRY_URL: `http://127.0.0.1:${registryPort}`,
      LOG_LEVEL: 'warn',
      CURATOR_TOKEN: curatorToken,
    };
  }, 120000);

  afterAll(async () => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
    await t?.drop();
    const redis = new Redis(TEST_REDIS_URL);
    await deleteQueueKeys(redis, prefix);
    redis.disconnect();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs as an unprivileged user that owns only its declared data volume, with no compiler in the image', () => {
    expect(stage.user).toBe('node');
    // The build stage prunes as makeBuildOutput does.
    expect(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')).toMatch(/npm prune --omit=dev[^\n]*&& node scripts\/prune-dev-optional\.mjs/);
    // TypeScript is a dev dependency that valibot (@bull-board/api's) names as an optional peer, which npm
    // keeps with --omit=dev; so are handlebars and @babel/core (the Koa adapter's template engines').
    for (const devOnly of ['typescript', 'handlebars', '@babel/core', '.bin/tsc']) expect(existsSync(path.join(app, 'node_modules', devOnly))).toBe(false);
    // The optional packages the service runs with stay: the queue board, and recheck's native binary.
    expect(existsSync(path.join(app, 'node_modules', '@bull-board', 'ui', 'dist', 'index.ejs'))).toBe(true);
    if (process.platform === 'linux' && process.arch === 'x64') expect(existsSync(path.join(app, 'node_modules', 'recheck-linux-x64'))).toBe(true);
    expect(statSync(path.join(app, 'dist')).uid).toBe(0);
    expect(stage.volumes.length).toBeGreaterThan(0);
    for (const volume of stage.volumes) {
      const owner = statSync(volume.replace(/^\/app/, app)).uid;
      expect(owner).toBe(UNPRIVILEGED.uid);
    }
    expect(stage.healthcheck.length).toBeGreaterThan(0);
    expect(stage.entrypoint.length).toBeGreaterThan(0);
  });

  it('migrates with the entrypoint and imports with the documented npm script', async () => {
    const migrated = await runToEnd([...stage.entrypoint, 'migrate']);
    expect(migrated.output).toMatch(/Applied \d+ migration/);
    expect(migrated.code).toBe(0);
    const imported = await runToEnd(['npm', 'run', '--silent', 'registry:import', '--', 'seeds/sample-registry.json']);
    expect(imported.output).not.toMatch(/tsc: not found/);
    expect(imported.output).toMatch(/Imported seeds\/sample-registry.json/);
    expect(imported.code).toBe(0);
  }, 60000);

  it('starts with the default command, builds and serves the dataset into the volume, and reports healthy', async () => {
    const child = asServiceUser([...stage.entrypoint, ...stage.cmd]);
    running.push(child);
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await waitFor(async () => output.includes('curie-resolver is running'), { timeoutMs: 60000, what: `the service to start (${output})` });

    const answer = await fetch(`http://127.0.0.1:${env.REGISTRY_PORT}/resolutionApi/getResolverDataset`, { signal: AbortSignal.timeout(60000) });
    expect(answer.status).toBe(200);
    const sample = JSON.parse(readFileSync(path.join(app, 'seeds', 'sample-registry.json'), 'utf8')) as unknown[];
    const body = (await answer.json()) as { payload: { namespaces: unknown[] } };
    expect(body.payload.namespaces).toHaveLength(sample.length);
    expect(readdirSync(path.join(app, 'var', 'dataset')).length).toBeGreaterThan(0);

    // The queue board renders and lists the queues with the production packages only.
    const board = `http://127.0.0.1:${env.REGISTRY_PORT}/curation/queues`;
    const asCurator = { headers: { Authorization: `Bearer ${curatorToken}` }, signal: AbortSignal.timeout(10000) };
    const page = await fetch(board, asCurator);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<base href="/curation/queues/" />');
    const queues = await fetch(`${board}/api/queues`, asCurator);
    expect(queues.status).toBe(200);
    expect(((await queues.json()) as { queues: unknown[] }).queues.length).toBeGreaterThan(0);

    const health = await runToEnd([...stage.healthcheck, 'start']);
    expect(health.code).toBe(0);

    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => (child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve)));
    expect(code).toBe(0);
    expect(output).not.toMatch(/EACCES/);
  }, 120000);
});
