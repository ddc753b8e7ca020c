import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { environmentWith, type Config } from './config.js';
import { forkPart, stopParts, type ChildPart, type PartKind } from './bootstrap/child-part.js';
import { partSettings } from './bootstrap/part-settings.js';
import { failStartup as fail, prepareDatabaseOrFail, startupConfig } from './bootstrap/startup.js';
import { projectRoot } from './lib/project-root.js';

/**
 * `npm run start:cluster`: scale-out on one machine. Prepares the database once, as `npm start` does, then
 * runs two resolver areas, two registry areas and two workers on the one Postgres and Redis, behind HAProxy
 * (deploy/haproxy/haproxy.cfg, the configuration docker compose uses too) listening on RESOLVER_PORT and
 * REGISTRY_PORT. The instances listen on 127.0.0.1 only, at CLUSTER_BACKEND_PORT and the three ports after
 * it, and trust the balancer's X-Forwarded-For. Once the balancer runs, a satellite resolver (satellite/)
 * follows the registry through it, listening on 127.0.0.1 at the fifth port (not behind the balancer: it
 * stands for a resolver in another region). An instance that dies is started again after a second (the
 * balancer's health checks keep traffic away meanwhile); Ctrl-C or SIGTERM stops everything.
 */
const USAGE = [
  'Usage: npm run start:cluster   (node dist/src/cli.js cluster)',
  'Prepares the database (as npm start), then runs 2 resolver areas, 2 registry areas and 2 workers behind',
  'HAProxy (deploy/haproxy/haproxy.cfg; Debian package haproxy) on RESOLVER_PORT and REGISTRY_PORT, the',
  'instances on 127.0.0.1 at CLUSTER_BACKEND_PORT..+3, and a satellite resolver following the registry on',
  'CLUSTER_BACKEND_PORT+4 (SATELLITE_TOKEN: a random one when empty), until Ctrl-C or SIGTERM.',
].join('\n');

const RESTART_DELAY_MS = 1000;
const HAPROXY_PLACES = ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy'];

interface Instance {
  kind: PartKind;
  name: string;
  env: NodeJS.ProcessEnv;
  current: ChildPart;
}

function findHaproxy(searchPath: string | undefined): string | undefined {
  const dirs = (searchPath ?? '').split(path.delimiter).filter(Boolean);
  for (const file of [...dirs.map((dir) => path.join(dir, 'haproxy')), ...HAPROXY_PLACES]) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** The variables deploy/haproxy/haproxy.cfg reads ("${VAR}"): where the balancer listens, where the instances are. */
function balancerVariables(config: Readonly<Config>): Record<string, string> {
  const base = config.CLUSTER_BACKEND_PORT;
  // HAProxy takes the port after the last colon, so an IPv6 HOST (`::`) needs no brackets.
  const host = config.HOST;
  return {
    CURIE_RESOLVER_BIND: `${host}:${config.RESOLVER_PORT}`,
    CURIE_REGISTRY_BIND: `${host}:${config.REGISTRY_PORT}`,
    CURIE_RESOLVER_1: `127.0.0.1:${base}`,
    CURIE_RESOLVER_2: `127.0.0.1:${base + 1}`,
    CURIE_REGISTRY_1: `127.0.0.1:${base + 2}`,
    CURIE_REGISTRY_2: `127.0.0.1:${base + 3}`,
  };
}

/** The n-th instance's metrics port (0, 1): the setting's port and the one after it, so that two instances never share one; 0 stays 0. */
const metricsPortOf = (port: number, n: number): string => String(port === 0 ? 0 : port + n);

function instancesOf(config: Readonly<Config>, satelliteToken: string): Omit<Instance, 'current'>[] {
  const base = config.CLUSTER_BACKEND_PORT;
  // Behind the balancer, on loopback only: the balancer appends the one X-Forwarded-For entry to believe
  // (the right-most; what a client wrote before it is not). Each resolver allows its share of the
  // resolver's per-client limits, which are counted in each process's memory; the registry's are shared
  // through Redis.
  const area = (port: number, portSetting: 'RESOLVER_PORT' | 'REGISTRY_PORT', n: number) => ({
    env: environmentWith({
      HOST: '127.0.0.1',
      [portSetting]: String(port),
      TRUST_PROXY: '1',
      ...(portSetting === 'RESOLVER_PORT'
        ? { RESOLVER_INSTANCES: '2', RESOLVER_METRICS_PORT: metricsPortOf(config.RESOLVER_METRICS_PORT, n) }
        : { REGISTRY_METRICS_PORT: metricsPortOf(config.REGISTRY_METRICS_PORT, n), SATELLITE_TOKEN: satelliteToken }),
    }),
  });
  const worker = (n: number) => ({ env: environmentWith({ WORKER_METRICS_PORT: metricsPortOf(config.WORKER_METRICS_PORT, n) }) });
  return [
    { kind: 'resolver', name: 'resolver-1', ...area(base, 'RESOLVER_PORT', 0) },
    { kind: 'resolver', name: 'resolver-2', ...area(base + 1, 'RESOLVER_PORT', 1) },
    { kind: 'registry', name: 'registry-1', ...area(base + 2, 'REGISTRY_PORT', 0) },
    { kind: 'registry', name: 'registry-2', ...area(base + 3, 'REGISTRY_PORT', 1) },
    { kind: 'worker', name: 'worker-1', ...worker(0) },
    { kind: 'worker', name: 'worker-2', ...worker(1) },
  ];
}

/** The satellite resolver: on the fifth backend port, following the registry area through the balancer. */
function satelliteOf(config: Readonly<Config>, satelliteToken: string): Omit<Instance, 'current'> {
  return {
    kind: 'satellite',
    name: 'satellite',
    env: environmentWith({
      HOST: '127.0.0.1',
      RESOLVER_PORT: String(config.CLUSTER_BACKEND_PORT + 4),
      RESOLVER_METRICS_PORT: metricsPortOf(config.RESOLVER_METRICS_PORT, 2),
      SATELLITE_UPSTREAM_URL: `http://127.0.0.1:${config.REGISTRY_PORT}`,
      SATELLITE_TOKEN: satelliteToken,
    }),
  };
}

async function main(): Promise<void> {
  const config = startupConfig(USAGE, partSettings(['resolver', 'registry', 'worker'], ['CLUSTER_BACKEND_PORT', 'SATELLITE_TOKEN']));
  if (!config) return;
  const haproxy = findHaproxy(environmentWith({}).PATH);
  if (!haproxy) fail('HAProxy is not installed: `sudo apt-get install haproxy` (Debian, Ubuntu), or put haproxy on PATH.');
  const cfg = path.join(projectRoot(), 'deploy', 'haproxy', 'haproxy.cfg');
  const balancerEnv = environmentWith(balancerVariables(config));
  const checked = spawnSync(haproxy, ['-c', '-q', '-f', cfg], { env: balancerEnv, encoding: 'utf8' });
  if (checked.status !== 0) fail(`HAProxy refuses ${cfg}:\n${checked.stderr || checked.stdout}`);
  await prepareDatabaseOrFail(config);

  let stopping = false;
  // Started once the instances are ready; stopAll may run before that.
  const balancer: { child?: ChildProcess } = {};
  // The registry areas and the satellite share it; a random one serves when the setting is empty.
  const satelliteToken = config.SATELLITE_TOKEN || randomBytes(24).toString('hex');
  const instances: Instance[] = instancesOf(config, satelliteToken).map((i) => ({ ...i, current: forkPart(i.kind, i.name, i.env) }));

  const stopAll = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    // The balancer first, so that no new request reaches an instance that is stopping.
    if (balancer.child) await stopParts([{ child: balancer.child }], 5000);
    await stopParts(instances.map((i) => i.current), config.SHUTDOWN_TIMEOUT_MS + 2000);
    process.stdout.write('stopped\n');
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  const supervise = (instance: Instance) => {
    instance.current.child.once('exit', (code, signal) => {
      if (stopping) return;
      process.stderr.write(
        `${instance.name} stopped unexpectedly (code ${String(code)}, signal ${String(signal)}); the balancer sends its requests to the other; starting it again\n`,
      );
      setTimeout(() => {
        if (stopping) return;
        instance.current = forkPart(instance.kind, instance.name, instance.env);
        instance.current.ready.then(
          (description) => process.stdout.write(`${instance.name} (pid ${String(instance.current.child.pid)}) is back: ${description}\n`),
          () => undefined,
        );
        supervise(instance);
      }, RESTART_DELAY_MS);
    });
  };

  let descriptions: string[];
  try {
    descriptions = await Promise.all(instances.map((i) => i.current.ready));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return stopAll(1);
  }
  for (const instance of instances) supervise(instance);

  // -db: in the foreground, logging to stderr; it reads the "${VAR}" of the configuration from its environment.
  balancer.child = spawn(haproxy, ['-db', '-f', cfg], { env: balancerEnv, stdio: ['ignore', 'inherit', 'inherit'] });
  balancer.child.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`HAProxy stopped (code ${String(code)}, signal ${String(signal)}); stopping the cluster\n`);
    void stopAll(1);
  });
  // After the balancer: a satellite without a snapshot on disk waits for its upstream before it is ready.
  const satelliteSpec = satelliteOf(config, satelliteToken);
  const satellite: Instance = { ...satelliteSpec, current: forkPart(satelliteSpec.kind, satelliteSpec.name, satelliteSpec.env) };
  instances.push(satellite);
  try {
    descriptions.push(await satellite.current.ready);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return stopAll(1);
  }
  supervise(satellite);
  const vars = balancerVariables(config);
  process.stdout.write(
    [
      '',
      'curie-resolver cluster is running:',
      `  balancer (HAProxy, pid ${String(balancer.child.pid)}): resolver area on ${vars.CURIE_RESOLVER_BIND}, registry area on ${vars.CURIE_REGISTRY_BIND}`,
      ...instances.map((i, n) => `  ${i.name} (pid ${String(i.current.child.pid)}): ${descriptions[n] ?? ''}`),
      `  try: curl ${config.PUBLIC_RESOLVER_URL}/health/ready   curl ${config.PUBLIC_REGISTRY_URL}/health/ready`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

await main();
