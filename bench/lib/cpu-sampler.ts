/**
 * CPU time of the servers under test and of this process (the load generator) over each load run. The runs
 * are taken in turn by measureTogether, which tells of a run only once it is over: so the CPU times are
 * sampled in the background, and a run's share is read off the samples over its window (it ended when it
 * was reported and lasted its measured duration).
 */
import { readFileSync } from 'node:fs';

export interface RunCpu {
  /** CPU time over wall time of the run, in % of one core (200 % = both cores of a 2-core machine). */
  serverCpuPct: number | null;
  loadGeneratorCpuPct: number | null;
  /** Every process of the machine less the two above: other work (Postgres, Redis, other engineers' runs). */
  otherCpuPct: number | null;
}

// USER_HZ, the unit of /proc/stat and /proc/<pid>/stat times: 100 on every mainstream Linux build (getconf CLK_TCK).
const TICKS_PER_SECOND = 100;
// The series of the whole machine's busy time, beside the pids' (no process has this id).
const MACHINE = -1;

/** utime + stime of a process, in ms, from /proc/<pid>/stat (Linux). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), starting at field 3 (state).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** Busy time of all CPUs together, in ms, from the first line of /proc/stat (idle and iowait are not busy). */
export function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = fields.reduce((sum, ticks, i) => (i === 3 || i === 4 ? sum : sum + ticks), 0);
  return (busy * 1000) / TICKS_PER_SECOND;
}

export class CpuSampler {
  private readonly at: number[] = [];
  private readonly cpu = new Map<number, number[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pids: readonly number[],
    private readonly intervalMs = 100,
  ) {
    for (const pid of [...pids, MACHINE]) this.cpu.set(pid, []);
  }

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    // Never what keeps the benchmark alive.
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads every pid's CPU time now (a pid that is gone keeps its last figure). */
  sample(): void {
    this.at.push(performance.now());
    for (const pid of [...this.pids, MACHINE]) {
      const series = this.cpu.get(pid)!;
      let ms = series[series.length - 1] ?? 0;
      try {
        ms = pid === MACHINE ? machineBusyMs() : processCpuMs(pid);
      } catch {
        // Gone: nothing more to count.
      }
      series.push(ms);
    }
  }

  /** CPU ms of `pid` at time `t`, interpolated between the samples around it; null outside them. */
  private cpuAt(pid: number, t: number): number | null {
    const series = this.cpu.get(pid);
    if (!series || this.at.length === 0 || t < this.at[0]! || t > this.at[this.at.length - 1]!) return null;
    const i = this.at.findIndex((time) => time >= t);
    if (i <= 0) return series[Math.max(0, i)]!;
    const [t0, t1] = [this.at[i - 1]!, this.at[i]!];
    const [c0, c1] = [series[i - 1]!, series[i]!];
    return t1 === t0 ? c1 : c0 + ((c1 - c0) * (t - t0)) / (t1 - t0);
  }

  /** The share of one core `pid` used over the `durationS` seconds that end at the last sample. */
  private pctOfLast(pid: number, durationS: number): number | null {
    const end = this.at[this.at.length - 1]!;
    const start = end - durationS * 1000;
    const [before, after] = [this.cpuAt(pid, start), this.cpuAt(pid, end)];
    if (before === null || after === null || durationS <= 0) return null;
    return Math.round(((after - before) / (durationS * 1000)) * 100);
  }

  /** The run of `durationS` seconds that just ended: its server's and this process's CPU. */
  runJustEnded(serverPid: number, durationS: number): RunCpu {
    this.sample();
    const server = this.pctOfLast(serverPid, durationS);
    const self = this.pctOfLast(process.pid, durationS);
    const machine = this.pctOfLast(MACHINE, durationS);
    const other = server === null || self === null || machine === null ? null : Math.max(0, machine - server - self);
    return { serverCpuPct: server, loadGeneratorCpuPct: self, otherCpuPct: other };
  }
}
