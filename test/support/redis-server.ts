import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

export async function startOwnRedis(): Promise<OwnRedis> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'own-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | null = null;
  const start = async () => {
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
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
