import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { freePort } from './processes.js';
import { waitFor } from './wait.js';

/**
 * A redis-server of the test's own on a free port, without persistence (a restart brings it back empty), for
 * drills that stop or empty it: never the shared one. Test files using it declare redisServerBinary()
 * (requirements.ts), so that a machine without it skips them with that reason.
 */
export interface OwnRedis {
  url: string;
  start: () => Promise<void>;
  /** Stops it (SIGTERM unless told otherwise) and waits for its exit. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  destroy: () => Promise<void>;
}

/** `args`: more redis-server options, e.g. ['--replicaof', '127.0.0.1', '6380'] for a replica. */
export async function startOwnRedis(args: readonly string[] = []): Promise<OwnRedis> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'own-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  const start = async () => {
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...args], {
      stdio: 'ignore',
    });
    const probe = createWorkerRedis(url);
    probe.on('error', () => undefined);
    try {
      await waitFor(async () => (await probe.ping()) === 'PONG', { timeoutMs: 10_000, what: 'the test redis-server starting' });
    } finally {
      probe.disconnect();
    }
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill(signal);
    await exited;
  };
  await start();
  return {
    url,
    start,
    stop,
    destroy: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface OwnSentinelSet {
  primary: OwnRedis;
  replica: OwnRedis;
  /** REDIS_SENTINELS for the service: the one Sentinel's host:port. */
  sentinels: string;
  name: string;
  /** The port of the server the Sentinel names primary now. */
  primaryPort: () => Promise<number>;
  destroy: () => Promise<void>;
}

/**
 * A primary, its replica and one Sentinel watching them (quorum 1, a primary unanswered for 500 ms is
 * down): the smallest set that fails over, on loopback, for the drill that stops the primary.
 */
export async function startOwnSentinelSet(name = 'curie-test'): Promise<OwnSentinelSet> {
  const primary = await startOwnRedis();
  const primaryPort = Number(new URL(primary.url).port);
  const replica = await startOwnRedis(['--replicaof', '127.0.0.1', String(primaryPort)]);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'own-sentinel-'));
  const port = await freePort();
  // Sentinel rewrites its configuration file as it learns the set: it must be a file of its own.
  const configFile = path.join(dir, 'sentinel.conf');
  writeFileSync(
    configFile,
    [
      `port ${port}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${primaryPort} 1`,
      `sentinel down-after-milliseconds ${name} 500`,
      `sentinel failover-timeout ${name} 3000`,
      '',
    ].join('\n'),
  );
  const sentinel = spawn('redis-server', [configFile, '--sentinel'], { stdio: 'ignore' });
  const probe = createWorkerRedis(`redis://127.0.0.1:${port}`);
  probe.on('error', () => undefined);
  const named = async () => {
    const answer = (await probe.call('SENTINEL', 'get-master-addr-by-name', name)) as [string, string] | null;
    return answer ? Number(answer[1]) : 0;
  };
  await waitFor(async () => (await named()) === primaryPort && (await probe.call('SENTINEL', 'replicas', name) as unknown[]).length > 0, {
    timeoutMs: 15_000,
    what: 'the Sentinel watching the primary and its replica',
  });
  return {
    primary,
    replica,
    sentinels: `127.0.0.1:${port}`,
    name,
    primaryPort: named,
    destroy: async () => {
      probe.disconnect();
      if (sentinel.exitCode === null && sentinel.signalCode === null) {
        const exited = new Promise((resolve) => sentinel.once('exit', resolve));
        sentinel.kill('SIGTERM');
        await exited;
      }
      await replica.destroy();
      await primary.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
