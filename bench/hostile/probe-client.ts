/**
 * Starts and reads the probe process (probe.ts): the single resolutions and cheap registry reads of an
 * ordinary client, measured in a process of their own while the harness attacks.
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { askChild } from './ipc-request.js';
import type { ProbeFigures, ProbePlan, ProbeTarget, ProbeWindowAnswer } from './probe.js';

export interface ProbeProcess {
  pid: number;
  /** The figures of the requests the probe sent between `from` and `to` (epoch ms), by target name. */
  window: (from: number, to: number) => Promise<Record<string, ProbeFigures>>;
  stop: () => Promise<void>;
}

/** The current time as the probe counts it (epoch ms, sub-millisecond). */
export const epochNow = (): number => performance.timeOrigin + performance.now();

export async function startProbe(projectRoot: string, targets: ProbeTarget[]): Promise<ProbeProcess> {
  const child: ChildProcess = fork(path.join(projectRoot, 'dist/bench/hostile/probe.js'), [], { cwd: projectRoot, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<{ statuses: string[] }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the probe exited at start (code ${code})`)));
    child.on('message', (message: { type?: string; statuses?: string[] }) => {
      if (message.type === 'ready') resolve({ statuses: message.statuses ?? [] });
    });
  });
  child.send({ type: 'plan', targets } satisfies ProbePlan);
  const { statuses } = await ready;
  const bad = targets.flatMap((t, i) => (statuses[i] === '200' ? [] : [`${t.name} ${t.paths[0]} → ${statuses[i]}`]));
  if (bad.length > 0) {
    child.kill();
    throw new Error(`the probe's requests do not answer 200: ${bad.join('; ')}`);
  }
  return {
    pid: child.pid!,
    window: async (from, to) => (await askChild<ProbeWindowAnswer>(child, { type: 'window', from, to }, 'window', 30_000)).figures,
    stop: async () => {
      if (child.exitCode === null && child.connected) child.send({ type: 'stop' });
      await exited;
    },
  };
}
