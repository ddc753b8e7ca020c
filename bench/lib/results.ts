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

/** The start of a suite's results: when, and on what machine. */
export const beginResults = (projectRoot: string): Pick<ResultsHeader, 'startedAt' | 'machine'> => ({
  startedAt: new Date().toISOString(),
  machine: machineInfo(projectRoot),
});

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

/** What every verdict row holds: a scenario's median run, its target and whether it was met. */
export interface RunVerdict {
  scenario: string;
  reqPerSec: number | null;
  p50Ms: number | null;
  p99Ms: number | null;
  target: string;
  pass: boolean | null;
  note?: string;
}

/** CPU time over wall time of a run, in % of one core, and which side was saturated. */
export interface CpuVerdict {
  serverCpuPct: number | null;
  loadGeneratorCpuPct: number | null;
  otherCpuPct: number | null;
  /** Which side was saturated during the run, from the CPU figures. */
  limit: string;
}

export const num = (value: number | null, digits = 0) =>
  value === null || Number.isNaN(value) ? '—' : value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
export const pct = (value: number | null) => (value === null ? '—' : `${value} %`);

/** A verdict's table row: scenario, req/s, p50, p99, the suite's own cells, target and result. */
export function verdictRow(v: RunVerdict, own: string[]): string[] {
  return [v.scenario, num(v.reqPerSec), num(v.p50Ms, 2), num(v.p99Ms, 2), ...own, v.target, passText(v.pass) + (v.note ? ` (${v.note})` : '')];
}

/** `Machine: …; commit …; load average … at start, … at end.`, the first line of every report. */
export function describeMachine(m: MachineInfo): string {
  return (
    `Machine: ${m.cpuCount} × ${m.cpuModel}, ${m.totalMemoryMb.toLocaleString('en')} MB, ${m.os}, Node ${m.node}; ` +
    `commit ${m.gitCommit ?? 'unknown'}${m.gitDirty ? ' (with uncommitted changes)' : ''}; ` +
    `load average ${m.loadAverageAtStart} at start, ${m.loadAverageAtEnd ?? '?'} at end.`
  );
}

/** A scenario's runs and its median run's answers, for the sanity lines; `extra` follows the runs. */
export function describeRuns(name: string, figures: { median: RunFigures; runs: RunFigures[] }, extra = ''): string {
  const m = figures.median;
  const statuses = Object.entries(m.statusCounts).map(([s, n]) => `${s}×${n}`).join(', ');
  const all = figures.runs.map((r) => r.reqPerSec.toLocaleString('en')).join(' / ');
  return (
    `${name}: runs ${all} req/s${extra}; median run ${m.completed.toLocaleString('en')} answers (${statuses}), ` +
    `${m.unexpected} unexpected, ${m.errors} errors, ${m.timeouts} timeouts`
  );
}

/**
 * The body of a report: the verdict table, the figure table (when the suite has figures), then the checks.
 * As markdown, the checks are a list under a heading; as text, plain lines.
 */
export function reportBody(
  format: 'markdown' | 'text',
  verdicts: { header: string[]; rows: string[][] },
  figures: Figure[] | null,
  checks: string[],
): string[] {
  const table = format === 'markdown' ? markdownTable : textTable;
  const figureTable = figures
    ? [table(['figure', 'value', 'target', 'result'], figures.map((f) => [f.figure, f.value, f.target || '—', passText(f.pass)])), '']
    : [];
  const checkLines = format === 'markdown' ? ['Checks:', '', ...checks.map((l) => `- ${l}`)] : checks;
  return [table(verdicts.header, verdicts.rows), '', ...figureTable, ...checkLines, ''];
}

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
