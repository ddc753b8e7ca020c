import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RESOLVER_NODE_FLAGS } from '../resolver/node-flags.js';

/** The parts, by the entries operators start separately (cli.ts runs the same ones). */
export const partEntries = {
  resolver: { entry: new URL('../resolver/main.js', import.meta.url), flags: RESOLVER_NODE_FLAGS },
  registry: { entry: new URL('../registry/main.js', import.meta.url), flags: [] as readonly string[] },
  worker: { entry: new URL('../../workers/main.js', import.meta.url), flags: [] as readonly string[] },
  // Not one of npm start's three: a satellite resolver, which start:cluster runs beside them.
  satellite: { entry: new URL('../satellite/main.js', import.meta.url), flags: RESOLVER_NODE_FLAGS },
} as const;

export type PartKind = keyof typeof partEntries;

export interface ChildPart {
  name: string;
  child: ChildProcess;
  /** The part's description once it reports ready (runPart's IPC message); rejects if it exits first. */
  ready: Promise<string>;
}

/**
 * Forks one part with an IPC channel: it reports readiness through it, and stops by itself when the
 * channel closes (its parent died), so a killed `npm start` leaves no orphan holding a port. `env`: the
 * child's whole environment (this process's when absent).
 */
export function forkPart(kind: PartKind, name: string, env?: NodeJS.ProcessEnv): ChildPart {
  const part = partEntries[kind];
  const child = fork(fileURLToPath(part.entry), [], { stdio: 'inherit', env, execArgv: [...process.execArgv, ...part.flags] });
  const ready = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within 60 s`)), 60000);
    child.on('message', (message: { type?: string; description?: string }) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.description ?? name);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${String(code)} while starting`));
    });
  });
  // A rejection nobody awaits yet (the part died after starting) must not end the parent.
  ready.catch(() => undefined);
  return { name, child, ready };
}

/** SIGTERM to every part still running; SIGKILL to those left after `graceMs`. Resolves when all exited. */
export async function stopParts(parts: readonly { child: ChildProcess }[], graceMs: number): Promise<void> {
  const alive = parts.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
  const force = setTimeout(() => {
    for (const p of alive) p.child.kill('SIGKILL');
  }, graceMs);
  force.unref();
  await Promise.all(
    alive.map(
      (p) =>
        new Promise<void>((resolve) => {
          if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
          p.child.once('exit', () => resolve());
          p.child.kill('SIGTERM');
        }),
    ),
  );
  clearTimeout(force);
}
