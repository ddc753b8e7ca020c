import { describeCheck, type CheckSummary } from '../lib/check-once.js';
import type { LoadSettings, RunFigures } from '../lib/load.js';
import { describeMachine, describeRuns, formatMs, pct, reportBody, UNEXPECTED_LIMIT, unexpectedShare, verdictRow, type CpuVerdict, type ResultsHeader, type RunVerdict } from '../lib/results.js';
import type { MemoryFigures } from '../lib/server-processes.js';
import type { RunCpu } from '../lib/cpu-sampler.js';

export type LoadRun = RunFigures & RunCpu;

export interface RegistrationScenario {
  /** Distinct requests the connections cycle through. */
  requestCount: number;
  /** The run with the median req/s (its own latencies and CPU go with it). */
  median: LoadRun;
  runs: LoadRun[];
}

export type ScenarioName = 'baseline' | 'mix' | 'regex';

export interface RegistrationBenchResults extends ResultsHeader {
  settings: LoadSettings & {
    /** Redis of the registry area under test, and its BullMQ key prefix. */
    redisUrl: string;
    queuePrefix: string;
  };
  endpoints: {
    mix: string[];
    regex: { path: string; reason: string }[];
    excluded: { path: string; reason: string }[];
  };
  setup: { importMs: number; serviceStartMs: number; baselineStartMs?: number };
  serviceMemory: { afterStart: MemoryFigures; afterScenarios?: MemoryFigures };
  /** Error-level log lines the registry area wrote during the benchmark (expected: 0). */
  serviceErrorLines?: number;
  requestCounts: Record<ScenarioName, number>;
  /** Distinct (pattern, sample) pairs of the regex scenario (the regex tester keeps 1,000 verdicts). */
  regexDistinctPairs: number;
  checks: Partial<Record<ScenarioName, CheckSummary>>;
  scenarios: Partial<Record<ScenarioName, RegistrationScenario>>;
  verdicts?: RegistrationVerdict[];
}

export interface RegistrationVerdict extends RunVerdict, CpuVerdict {
  /** req/s over the baseline's in the same turns. */
  ratio: number | null;
}

// The acceptance line: validator endpoints without a network check, at 10 concurrent connections.
export const MIN_REQ_PER_SEC = 5000;
export const MAX_P99_MS = 5;
const TARGET = `≥ ${MIN_REQ_PER_SEC.toLocaleString('en')} req/s, p99 ≤ ${MAX_P99_MS} ms`;
// A process at or above this share of one core is taken as saturated (as the registry benchmark's).
const SATURATED_PCT = 90;

export const SCENARIO_LABELS: Record<ScenarioName, string> = {
  baseline: 'baseline (Koa + router + jsonBody, fixed VALIDATION OK)',
  mix: 'validator mix, no network check',
  regex: 'validateIdRegexPattern (user regex in a worker thread)',
};

/** Each saturated process, and the machine when every core was busy; "—" for none (as the registry benchmark's). */
function limitOf(run: LoadRun, cores: number): string {
  const limits: string[] = [];
  if ((run.loadGeneratorCpuPct ?? 0) >= SATURATED_PCT) limits.push('load generator');
  if ((run.serverCpuPct ?? 0) >= SATURATED_PCT) limits.push('server');
  const machine = (run.serverCpuPct ?? 0) + (run.loadGeneratorCpuPct ?? 0) + (run.otherCpuPct ?? 0);
  if (machine >= SATURATED_PCT * cores) limits.push((run.otherCpuPct ?? 0) >= 50 ? 'machine (with other load)' : 'machine');
  return limits.length > 0 ? limits.join(', ') : '—';
}

function row(
  scenario: string,
  figures: RegistrationScenario,
  baseline: RegistrationScenario | undefined,
  cores: number,
  target: string,
  pass: boolean | null,
  note?: string,
): RegistrationVerdict {
  const run = figures.median;
  return {
    scenario,
    reqPerSec: run.reqPerSec,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    ratio: baseline ? Math.round((run.reqPerSec / baseline.median.reqPerSec) * 100) / 100 : null,
    serverCpuPct: run.serverCpuPct,
    loadGeneratorCpuPct: run.loadGeneratorCpuPct,
    otherCpuPct: run.otherCpuPct,
    limit: limitOf(run, cores),
    target,
    pass,
    note,
  };
}

/** A scenario against the acceptance line; any run with more than 0.1 % unexpected answers or errors fails it. */
function judged(scenario: string, figures: RegistrationScenario, baseline: RegistrationScenario | undefined, cores: number): RegistrationVerdict {
  const run = figures.median;
  let pass = run.reqPerSec >= MIN_REQ_PER_SEC && run.p99Ms <= MAX_P99_MS;
  let note: string | undefined;
  const worstShare = Math.max(...figures.runs.map(unexpectedShare));
  if (worstShare > UNEXPECTED_LIMIT) {
    note = `${(worstShare * 100).toFixed(2)} % unexpected answers or errors`;
    pass = false;
  }
  return row(scenario, figures, baseline, cores, TARGET, pass, note);
}

/** The acceptance targets, judged on the median runs; the baseline is the reference. */
export function judge(results: RegistrationBenchResults): RegistrationVerdict[] {
  const s = results.scenarios;
  const cores = results.machine.cpuCount;
  const verdicts: RegistrationVerdict[] = [];
  if (s.baseline) verdicts.push(row(SCENARIO_LABELS.baseline, s.baseline, s.baseline, cores, 'reference', null));
  if (s.mix) verdicts.push(judged(`${SCENARIO_LABELS.mix} (${results.endpoints.mix.length} endpoints)`, s.mix, s.baseline, cores));
  if (s.regex) verdicts.push(judged(SCENARIO_LABELS.regex, s.regex, s.baseline, cores));
  return verdicts;
}

const VERDICT_HEADER = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'ratio to baseline', 'CPU server', 'CPU load gen.', 'CPU other', 'limited by', 'target', 'result'];

const verdictRows = (verdicts: RegistrationVerdict[]): string[][] =>
  verdicts.map((v) =>
    verdictRow(v, [v.ratio === null ? '—' : v.ratio.toFixed(2), pct(v.serverCpuPct), pct(v.loadGeneratorCpuPct), pct(v.otherCpuPct), v.limit]),
  );

function statusSplit(summary: CheckSummary): string {
  const statuses: Record<string, number> = {};
  for (const kind of Object.values(summary.byKind)) {
    for (const [status, n] of Object.entries(kind.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
  }
  return Object.entries(statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(', ');
}

function sanityLines(results: RegistrationBenchResults, detailed: boolean): string[] {
  const lines: string[] = [];
  for (const [name, figures] of Object.entries(results.scenarios) as [ScenarioName, RegistrationScenario][]) {
    lines.push(describeRuns(name, figures));
  }
  for (const [name, summary] of Object.entries(results.checks) as [ScenarioName, CheckSummary][]) {
    lines.push(
      `${name}: every request sent once before the load: ${summary.total.toLocaleString('en')} (${statusSplit(summary)}), ` +
        `${summary.offIntent} answered other than the workload intends` +
        (detailed && name !== 'baseline' ? `; by endpoint: ${describeCheck(summary)}` : ''),
    );
  }
  const memory = results.serviceMemory;
  lines.push(
    `registry area: start to ready ${formatMs(results.setup.serviceStartMs)}, RSS ${memory.afterStart.rssMb} MB after start, ` +
      `${memory.afterScenarios?.rssMb ?? '?'} MB after the load (peak ${memory.afterScenarios?.peakRssMb ?? '?'} MB); ` +
      `log lines at level error: ${results.serviceErrorLines ?? '?'}`,
  );
  return lines;
}

/** The left-out endpoints by name (both areas leave out the same ones, for the same reasons). */
function excludedByName(excluded: RegistrationBenchResults['endpoints']['excluded']): [string, string][] {
  const byName = new Map<string, string>();
  for (const { path, reason } of excluded) byName.set(path.slice(path.lastIndexOf('/') + 1), reason);
  return [...byName];
}

function method(results: RegistrationBenchResults): string[] {
  const st = results.settings;
  const e = results.endpoints;
  const counts = results.requestCounts;
  return [
    `Load: autocannon with ${st.connections} connections from the orchestrating process; the registry area (\`node dist/src/registry/main.js\`, default settings, ` +
      `its own database with the real dataset imported, QUEUE_PREFIX \`${st.queuePrefix}\`) and the baseline each in a child process. ` +
      `Each connection cycles through its share of a scenario's requests. A ${st.warmupS} s warm-up of each target, then ${st.runs} runs of ${st.durationS} s ` +
      `taken in turn (baseline, mix, regex, baseline, ...); the median run by req/s is reported with its own p50/p99 (every answer's response time) and CPU ` +
      `(CPU time over the run's wall time in % of one core: the server's process, the load generator, and the rest of the machine from /proc/stat, ` +
      `i.e. Postgres, Redis and any other work; "limited by" names a process at ≥ ${SATURATED_PCT} % of a core, and "machine" when everything together used ≥ ${SATURATED_PCT} % of every core).`,
    `Requests: \`POST\` with \`Content-Type: application/json\` and \`{"apiVersion":"1.0","payload":{...}}\`. ` +
      `**Mix** (${counts.mix.toLocaleString('en')} requests): each of the ${e.mix.length} endpoints below equally often, two passing payloads (200 VALIDATION OK) ` +
      `for each failing one (400 VALIDATION FAILED: blank, too long, malformed, wrong type, no payload); names, descriptions, locations, prefixes and provider codes ` +
      `come from the real dataset, so the prefix and provider-code rules look up the registry with taken and free values (answers the area caches per registry version, for 10 s at most). ` +
      `**Regex** (${counts.regex.toLocaleString('en')} requests to ${e.regex.map((r) => `\`${r.path}\``).join(', ')}): every namespace's own pattern with its sample id, ` +
      `and for every other namespace a sample its pattern refuses, a pattern that does not compile, or no sample id; each of its ${results.regexDistinctPairs.toLocaleString('en')} ` +
      `(pattern, sample) pairs once, more than the area's regex tester keeps verdicts for (1,000), sent in a fixed cycle, so (nearly) every request is compiled and ` +
      `tested in one of the tester's worker threads (no network). It is judged against the same target as the mix, on its own. ` +
      `**Baseline**: Koa and @koa/router with the project's \`jsonBody\` on the same paths, answering the area's fixed VALIDATION OK whatever the payload, ` +
      `sent the mix's requests; the ratio column is req/s over the baseline's.`,
    `Mix endpoints: ${e.mix.map((p) => `\`${p}\``).join(', ')}.`,
    `Not measured, in either area (they can fetch a URL: the check goes through the url-check queue to the worker process, which fetches it): ` +
      excludedByName(e.excluded)
        .map(([name, reason]) => `\`${name}\` (${reason})`)
        .join('; ') +
      '.',
  ];
}

export function markdownReport(results: RegistrationBenchResults, verdicts: RegistrationVerdict[]): string {
  const m = results.machine;
  return [
    `# Registration validator benchmark — ${results.startedAt}`,
    '',
    `${describeMachine(m)} ` +
      `Dataset: ${results.dataset.namespaces.toLocaleString('en')} namespaces, ${results.dataset.resources.toLocaleString('en')} resources.`,
    '',
    ...method(results).flatMap((line) => [line, '']),
    ...reportBody('markdown', { header: VERDICT_HEADER, rows: verdictRows(verdicts) }, null, sanityLines(results, true)),
  ].join('\n');
}

export function textReport(results: RegistrationBenchResults, verdicts: RegistrationVerdict[]): string {
  return reportBody('text', { header: VERDICT_HEADER, rows: verdictRows(verdicts) }, null, sanityLines(results, false)).join('\n');
}
