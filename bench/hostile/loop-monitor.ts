/**
 * Preloaded into each area under the hostile benchmark (`node --import <this file> dist/src/.../main.js`,
 * loop-delay.ts gives the flag), so that the service's code is measured as it is, with nothing of the
 * benchmark in src/. Not prom-client's histogram (`nodejs_eventloop_lag_max_seconds` on /metrics): that one
 * is reset by every scrape, and /metrics is itself a route under attack.
 *
 * A timer due every LOOP_RESOLUTION_MS notes how late it runs, and how much CPU time the process used
 * meanwhile: a loop held by work is late with the CPU busy, a process waiting for a core of a shared
 * machine is late with the CPU idle. A message {type: 'hostile:loop-read', id} is answered with the longest
 * delays since the last read (LoopReading), and the next reading starts.
 */
import { LOOP_RESOLUTION_MS, type LoopReading } from './loop-reading.js';

let lastAt = performance.now();
let lastCpu = process.cpuUsage();
let maxMs = 0;
let busyMaxMs = 0;

/** Counts the stretch since the timer last ran (up to now). */
function note(now: number): void {
  const cpu = process.cpuUsage(lastCpu);
  const late = now - lastAt - LOOP_RESOLUTION_MS;
  if (late > 0) {
    maxMs = Math.max(maxMs, late);
    busyMaxMs = Math.max(busyMaxMs, Math.min(late, (cpu.user + cpu.system) / 1000));
  }
}

function restart(now: number): void {
  lastAt = now;
  lastCpu = process.cpuUsage();
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
