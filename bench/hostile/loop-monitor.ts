/**
 * Preloaded into each area under the hostile benchmark (`node --import <this file> dist/src/.../main.js`,
 * loop-delay.ts gives the flag), so that the service's code is measured as it is, with nothing of the
 * benchmark in src/. Not prom-client's histogram (`nodejs_eventloop_lag_max_seconds` on /metrics): that one
 * is reset by every scrape, and /metrics is itself a route under attack.
 *
 * A timer due every LOOP_RESOLUTION_MS notes how late it runs, and how much CPU time the main thread used
 * meanwhile: a loop held by work is late with the thread on a core, a process waiting for a core of a
 * shared machine is late without. The main thread's CPU time comes from Linux's schedstat (nanoseconds;
 * the main thread's id is the process id); where that file is missing, the whole process's CPU time stands
 * in (GC and worker threads included, so an overestimate). A message {type: 'hostile:loop-read', id} is
 * answered with the longest delays since the last read (LoopReading), and the next reading starts.
 */
import { readFileSync } from 'node:fs';
import { LOOP_RESOLUTION_MS, type LoopReading } from './loop-reading.js';

const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;

function mainThreadCpuMs(): number {
  return Number(readFileSync(SCHEDSTAT, 'latin1').split(' ', 1)[0]) / 1e6;
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

const cpuMs = (() => {
  try {
    mainThreadCpuMs();
    return mainThreadCpuMs;
  } catch {
    return processCpuMs;
  }
})();

let lastAt = performance.now();
let lastCpu = cpuMs();
let maxMs = 0;
let busyMaxMs = 0;

/** Counts the stretch since the timer last ran (up to now). */
function note(now: number): void {
  const late = now - lastAt - LOOP_RESOLUTION_MS;
  if (late > 0) {
    maxMs = Math.max(maxMs, late);
    busyMaxMs = Math.max(busyMaxMs, Math.min(late, cpuMs() - lastCpu));
  }
}

function restart(now: number): void {
  lastAt = now;
  lastCpu = cpuMs();
}

function tick(): void {
  const now = performance.now();
  note(now);
  restart(now);
  // Never what keeps the service alive.
  setTimeout(tick, LOOP_RESOLUTION_MS).unref();
}
setTimeout(tick, LOOP_RESOLUTION_MS).unref();

const tenths = (ms: number) => Math.round(ms * 10) / 10;

process.on('message', (message: { type?: string; id?: number }) => {
  if (message?.type !== 'hostile:loop-read' || !process.send) return;
  // A stretch that held the loop until this message could be read belongs to the reading that ends now.
  const now = performance.now();
  note(now);
  restart(now);
  const reading: LoopReading = { type: 'hostile:loop', id: message.id!, maxMs: tenths(maxMs), busyMaxMs: tenths(busyMaxMs) };
  maxMs = 0;
  busyMaxMs = 0;
  process.send(reading);
});
