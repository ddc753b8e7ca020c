import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

/** A port nobody listens on right now (the OS picks it), for servers started by a test. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a compiled entry point (dist/...) of the project with the given environment (and node's own flags). */
export function spawnNode(entry: string, env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): Spawned {
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, entry), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => text, exited };
}

/** How long a process may take over a graceful stop before it is killed: within a hook's 30 s, with room. */
const STOP_WITHIN_MS = 15_000;

/**
 * Stops a spawned process (SIGTERM unless told otherwise) and waits for its exit; one already gone is left be.
 * One that has not exited STOP_WITHIN_MS later is killed, so a stuck shutdown cannot outlast the hook.
 */
export async function stopProcess(spawned: Spawned | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!spawned) return;
  if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill(signal);
  const overdue = setTimeout(() => spawned.child.kill('SIGKILL'), STOP_WITHIN_MS);
  try {
    await spawned.exited;
  } finally {
    clearTimeout(overdue);
  }
}

/** `npm run registry:import` (dist/src/importer/cli.js) on `databaseUrl`, with this process's environment. */
export function runImporterCli(args: string[], databaseUrl: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/importer/cli.js'), ...args], { env: { ...process.env, DATABASE_URL: databaseUrl } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The processes below `pid` (children, their children, …), read from /proc (Linux). */
export function descendantsOf(pid: number): number[] {
  let children: number[];
  try {
    children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

/** Whether process `pid` still runs (a zombie, exited but not yet reaped by its parent, does not). */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
