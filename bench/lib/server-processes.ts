import { spawn, type ChildProcess } from 'node:child_process';
import { RESOLVER_NODE_FLAGS } from '../../src/resolver/node-flags.js';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { configKeys } from '../../src/config.js';
import { sendRequest } from './http-client.js';

/** A server under test, in a child process of its own (the load generator never shares its process). */
export interface ServerProcess {
  name: string;
  pid: number;
  port: number;
  /** Spawn to ready, in ms. */
  startMs: number;
  stop: () => Promise<void>;
}

export interface ResolverProcess extends ServerProcess {
  /** `ms` of the resolver's own `registry snapshot loaded` log line. */
  snapshotLoadMs: number | null;
  snapshotNamespaces: number | null;
  /** Log lines at level error or above since the start. */
  errorLines: () => number;
}

export interface MemoryFigures {
  rssMb: number;
  /** Peak resident set size of the process so far (VmHWM). */
  peakRssMb: number;
}

/** VmRSS and VmHWM of a process, from /proc (Linux). */
export function readMemory(pid: number): MemoryFigures {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The parent's environment less every setting of the service, so that a LOG_LEVEL or sample rate in the
 * caller's shell cannot change what is measured: the service runs with its defaults plus `settings`.
 */
function serviceEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of configKeys) delete env[key];
  return { ...env, ...settings };
}

function exitPromise(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  const exited = exitPromise(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Fails as soon as the child exits, so a crash at start is reported instead of waited out. */
function failOnExit(child: ChildProcess, name: string, recentOutput: () => string): Promise<never> {
  const failed = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => {
      reject(new Error(`${name} exited during start-up (code ${code}, signal ${signal})\n${recentOutput()}`));
    });
  });
  // Once started, its exit at stop() rejects this promise with nobody waiting: that is not an error.
  failed.catch(() => undefined);
  return failed;
}

export async function pollReady(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const answer = await sendRequest(port, { method: 'GET', path: '/health/ready' });
      const status = (JSON.parse(answer.body) as { payload?: { status?: string } }).payload?.status;
      if (answer.status === 200 && status === 'ok') return;
      last = `${answer.status} ${answer.body.slice(0, 300)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`not ready within ${timeoutMs} ms: ${last}`);
}

/** A service entry of the project (resolver or registry area) running as a child process. */
export interface NodeServiceProcess extends ServerProcess {
  /** Log lines at level error or above since the start. */
  errorLines: () => number;
  /** The child process, for its IPC channel (the hostile benchmark reads a preloaded monitor through it). */
  child: ChildProcess;
}

/**
 * Starts a service entry of the project (`node [nodeFlags] <entry>`) with every setting of the service at its
 * default except the database, Redis, host, the port named by `portSetting` and `extraEnv`, and waits until
 * /health/ready answers ok. `onLogLine` sees every JSON log line of its stdout.
 */
export async function startNodeService(options: {
  projectRoot: string;
  /** Path of the compiled entry, relative to the project root (e.g. dist/src/registry/main.js). */
  entry: string;
  /** The setting that names the port to listen on (RESOLVER_PORT, REGISTRY_PORT). */
  portSetting: string;
  databaseUrl: string;
  redisUrl: string;
  name: string;
  nodeFlags?: readonly string[];
  extraEnv?: Record<string, string>;
  onLogLine?: (entry: Record<string, unknown>) => void;
}): Promise<NodeServiceProcess> {
  const { name } = options;
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), path.join(options.projectRoot, options.entry)], {
    cwd: options.projectRoot,
    env: serviceEnv({
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      HOST: '127.0.0.1',
      [options.portSetting]: String(port),
      ...options.extraEnv,
    }),
    // An IPC channel: the service stops by itself if this process dies without stopping it.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const recent: string[] = [];
  let errorLines = 0;
  const remember = (line: string) => {
    recent.push(line);
    if (recent.length > 40) recent.shift();
  };
  createInterface({ input: child.stdout! }).on('line', (line) => {
    remember(line);
    try {
      const entry = JSON.parse(line) as Record<string, unknown> & { level?: number };
      if ((entry.level ?? 0) >= 50) errorLines++;
      options.onLogLine?.(entry);
    } catch {
      // Not JSON (a warning printed by Node itself): kept for the diagnostics only.
    }
  });
  createInterface({ input: child.stderr! }).on('line', remember);
  const recentOutput = () => recent.join('\n');

  try {
    await Promise.race([pollReady(port, 120_000), failOnExit(child, name, recentOutput)]);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return {
    name,
    pid: child.pid!,
    port,
    startMs: Math.round(performance.now() - started),
    errorLines: () => errorLines,
    child,
    stop: () => stopChild(child),
  };
}

/**
 * Starts the real resolver entry (`node dist/src/resolver/main.js`, with the V8 flags npm start gives it) with LOG_LEVEL and the request log
 * sample rate at their defaults, and waits until /health/ready answers ok.
 */
export async function startResolver(options: {
  projectRoot: string;
  databaseUrl: string;
  redisUrl: string;
  name?: string;
  /** Settings that differ from the defaults, for experiments; the benchmark itself passes none. */
  extraEnv?: Record<string, string>;
}): Promise<ResolverProcess> {
  let snapshotLoadMs: number | null = null;
  let snapshotNamespaces: number | null = null;
  const service = await startNodeService({
    projectRoot: options.projectRoot,
    entry: 'dist/src/resolver/main.js',
    portSetting: 'RESOLVER_PORT',
    databaseUrl: options.databaseUrl,
    redisUrl: options.redisUrl,
    name: options.name ?? 'resolver',
    nodeFlags: RESOLVER_NODE_FLAGS,
    extraEnv: options.extraEnv,
    onLogLine: (entry) => {
      if (entry.msg === 'registry snapshot loaded') {
        snapshotLoadMs = typeof entry.ms === 'number' ? entry.ms : null;
        snapshotNamespaces = typeof entry.namespaces === 'number' ? entry.namespaces : null;
      }
    },
  });
  return {
    name: service.name,
    pid: service.pid,
    port: service.port,
    startMs: service.startMs,
    get snapshotLoadMs() {
      return snapshotLoadMs;
    },
    get snapshotNamespaces() {
      return snapshotNamespaces;
    },
    errorLines: service.errorLines,
    stop: service.stop,
  };
}

/** Starts the `node:http` + Map ceiling server (ceiling-server.ts) answering from `answersFile`. */
export async function startCeiling(options: { projectRoot: string; answersFile: string }): Promise<ServerProcess> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(options.projectRoot, 'dist/bench/resolver/ceiling-server.js'), options.answersFile], {
    cwd: options.projectRoot,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = new Promise<number>((resolve) => {
    child.on('message', (message: { type?: string; port?: number }) => {
      if (message.type === 'ready' && typeof message.port === 'number') resolve(message.port);
    });
  });
  let port: number;
  try {
    port = await Promise.race([ready, failOnExit(child, 'ceiling server', () => '')]);
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { name: 'ceiling', pid: child.pid!, port, startMs: Math.round(performance.now() - started), stop: () => stopChild(child, 5000) };
}
