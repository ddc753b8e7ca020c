/**
 * What the three benchmark suites share in their results: the machine they ran on, the tables, and the
 * files kept in the repository (bench/results/<suite>.json and .md, the latest run only).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunFigures } from './load.js';

export interface MachineInfo {
  cpuModel: string;
  cpuCount: number;
  totalMemoryMb: number;
  os: string;
  node: string;
  gitCommit: string | null;
  /** Uncommitted changes in the work tree when the benchmark ran. */
  gitDirty: boolean | null;
  /** 1-minute load average at the start and at the end: other work on the machine skews the figures. */
  loadAverageAtStart: number;
  loadAverageAtEnd?: number;
}

/** What every suite's results begin with. */
export interface ResultsHeader {
  startedAt: string;
  finishedAt?: string;
  machine: MachineInfo;
  dataset: { path: string; namespaces: number; resources: number };
}

export interface Figure {
  figure: string;
  value: string;
  target: string;
  pass: boolean | null;
}

export function machineInfo(projectRoot: string): MachineInfo {
  const git = (...args: string[]) => {
    try {
      return execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return null;
    }
  };
  const status = git('status', '--porcelain');
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    gitCommit: git('rev-parse', 'HEAD'),
    gitDirty: status === null ? null : status !== '',
    loadAverageAtStart: Math.round(os.loadavg()[0]! * 100) / 100,
  };
}

/** Share of answers that were not what the same request got before the load, or failed outright. */
export function unexpectedShare(run: RunFigures): number {
  const bad = run.unexpected + run.errors + run.timeouts;
  return run.completed + run.errors === 0 ? 1 : bad / (run.completed + run.errors);
}

// Above this share of unexpected answers a throughput figure measures the wrong thing.
export const UNEXPECTED_LIMIT = 0.001;

export function formatMs(ms: number | null): string {
  if (ms === null) return 'n/a';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

export const passText = (pass: boolean | null) => (pass === null ? '—' : pass ? 'pass' : 'FAIL');
export function markdownTable(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * Overwrites bench/results/<name>.json (every figure) and bench/results/<name>.md (the tables): the
 * repository keeps the latest run of each suite, and git keeps the earlier ones.
 */
export function writeResults(projectRoot: string, results: object, markdown: string, name: string): { json: string; markdown: string } {
  const dir = path.join(projectRoot, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const json = path.join(dir, `${name}.json`);
  writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  const md = path.join(dir, `${name}.md`);
  writeFileSync(md, markdown);
  return { json, markdown: md };
}
