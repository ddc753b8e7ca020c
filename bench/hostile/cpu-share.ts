/**
 * CPU use over a span, from /proc (Linux): the attacked area's, and everything outside the benchmark (other
 * people's work on a shared machine), which says how far a route's figures are the machine's rather than
 * the route's.
 */
import { machineBusyMs, processCpuMs } from '../lib/cpu-sampler.js';

export interface CpuMark {
  at: number;
  machineMs: number;
  byPid: Map<number, number>;
}

export interface CpuShare {
  /** The attacked area's CPU time over the span's wall time, in % of one core. */
  attackedPct: number;
  /** The machine's busy time less every process of the benchmark, in % of one core. */
  outsidePct: number;
}

function cpuOf(pid: number): number {
  try {
    return processCpuMs(pid);
  } catch {
    // Gone: counts as nothing more.
    return 0;
  }
}

export function markCpu(pids: readonly number[]): CpuMark {
  return { at: performance.now(), machineMs: machineBusyMs(), byPid: new Map(pids.map((pid) => [pid, cpuOf(pid)])) };
}

/** The share since `start` of `attackedPid`, and of everything but the marked pids. */
export function cpuShareSince(start: CpuMark, attackedPid: number): CpuShare {
  const end = markCpu([...start.byPid.keys()]);
  const wallMs = Math.max(1, end.at - start.at);
  const used = (pid: number) => end.byPid.get(pid)! - start.byPid.get(pid)!;
  const ours = [...start.byPid.keys()].reduce((sum, pid) => sum + used(pid), 0);
  const pct = (ms: number) => Math.max(0, Math.round((ms / wallMs) * 100));
  return { attackedPct: pct(used(attackedPid)), outsidePct: pct(end.machineMs - start.machineMs - ours) };
}
