/** Timed dataset builds, each in a child process of its own (build-child.ts), for its time and peak RSS. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { BuildChildReport } from './build-child.js';

export interface BuildRun extends Omit<BuildChildReport, 'type'> {
  /** Spawn to exit, Node start-up and module loading included. */
  processMs: number;
  /**
   * Highest RSS sampled while the second quarter of the namespaces was written, and while the last quarter
   * was: windows of the same length, so GC's sawtooth weighs alike in both. Their difference is the trend;
   * null when the registry is too small for quarters of pages (the real one is a single page).
   */
  secondQuarterMaxRssMb: number | null;
  lastQuarterMaxRssMb: number | null;
  trendMb: number | null;
}

export interface BuildFigures {
  /** The run with the median build time. */
  median: BuildRun;
  runs: BuildRun[];
  /** Highest VmHWM of all runs. */
  worstPeakRssMb: number;
  /** Largest trend of all runs (see BuildRun.trendMb). */
  worstTrendMb: number | null;
}

async function buildOnce(projectRoot: string, databaseUrl: string, dir: string): Promise<BuildRun> {
  const started = performance.now();
  // No V8 flags: the worker (`node dist/workers/main.js`) runs with none.
  const child = spawn(process.execPath, [path.join(projectRoot, 'dist/bench/registry/build-child.js'), databaseUrl, dir], {
    cwd: projectRoot,
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  let report: BuildChildReport | null = null;
  child.on('message', (message: BuildChildReport) => {
    if (message.type === 'built') report = message;
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  const processMs = Math.round(performance.now() - started);
  if (code !== 0 || !report) throw new Error(`dataset build child exited with code ${code}${report ? '' : ' without a report'}\n${stderr}`);
  const { type: _type, ...figures } = report as BuildChildReport;
  // A streamed build reaches its working set within the first pages: its memory should not rise after that.
  const total = figures.namespaceCount;
  const maxRss = (from: number, to: number) => {
    const inWindow = figures.samples.filter((s) => s.namespaces > from * total && s.namespaces <= to * total);
    return inWindow.length >= 2 ? Math.max(...inWindow.map((s) => s.rssMb)) : null;
  };
  const second = maxRss(0.25, 0.5);
  const last = maxRss(0.75, 1);
  return { ...figures, processMs, secondQuarterMaxRssMb: second, lastQuarterMaxRssMb: last, trendMb: second === null || last === null ? null : last - second };
}

/** `runs` forced builds of the registry in `databaseUrl` into `dir`, one after another. */
export async function measureBuilds(
  projectRoot: string,
  databaseUrl: string,
  dir: string,
  runs: number,
  onRun?: (run: number, figures: BuildRun) => void,
): Promise<BuildFigures> {
  const all: BuildRun[] = [];
  for (let run = 1; run <= runs; run++) {
    const figures = await buildOnce(projectRoot, databaseUrl, dir);
    all.push(figures);
    onRun?.(run, figures);
  }
  const sorted = [...all].sort((a, b) => a.buildMs - b.buildMs);
  return { median: sorted[Math.floor((sorted.length - 1) / 2)]!, runs: all, worstPeakRssMb: Math.max(...all.map((r) => r.after.peakRssMb)),
    worstTrendMb: all.some((r) => r.trendMb === null) ? null : Math.max(...all.map((r) => r.trendMb!)),
  };
}
