import type { LoadSettings } from '../lib/load.js';
import { describeMachine, describeRuns, formatMs, num, pct, reportBody, UNEXPECTED_LIMIT, unexpectedShare, verdictRow, type CpuVerdict, type Figure, type ResultsHeader, type RunVerdict } from '../lib/results.js';
import type { LoadRun, RegistryScenario } from './measure.js';
import type { RollupFigures } from './rollup.js';
import { NAMESPACE_PAGE_CONNECTIONS, type ScenarioName, type SizeFigures } from './size-phase.js';

export interface RegistryBenchResults extends ResultsHeader {
  settings: LoadSettings & {
    buildRuns: number;
    scaleNamespaces: number;
    /** Redis of the registry areas under test. */
    redisUrl: string;
    rollupRedisUrl: string;
  };
  searchStarts: { real: number; synthetic: number; all: number };
  real?: SizeFigures;
  scale?: SizeFigures | { skipped: true };
  rollup?: (RollupFigures & { database: string }) | { skipped: true };
  verdicts?: RegistryVerdict[];
  figures?: Figure[];
}

export interface RegistryVerdict extends RunVerdict, CpuVerdict {
  mbPerSec: number | null;
  postgresCpuPct: number | null;
}

// The targets.
export const BROWSE_SEARCH_P99_MS = 20;
export const NAMESPACE_PAGE_P99_MS = 20;
export const DATASET_GZIP_MIN_REQ_PER_SEC = 300;
export const BUILD_MAX_MS = 30_000;
export const ROLLUP_MAX_MS = 30_000;
/**
 * "Memory that does not grow with the registry", judged within the large build from its RSS sampled after
 * every page: the highest RSS while the last quarter of the namespaces is written may exceed the highest
 * while the second quarter is written by at most this much. A streamed build reaches its working set (a page
 * of 1,000 namespaces and the GC's slack, a sawtooth some 60 MB high) within the first pages and stays flat;
 * one that kept rows or text would rise by a half of the dataset between the two windows (the files are
 * 170 MB at 100,000 namespaces). The real registry is one page, so its build is shown beside, not judged.
 */
export const BUILD_MEMORY_TREND_LIMIT_MB = 32;

const mbPerSec = (run: LoadRun) => Math.round((run.bytes / run.durationS / 1e6) * 10) / 10;

// A process at or above this share of one core is taken as saturated (the load generator is one JS thread;
// the area's JS too, though zlib, libuv and the kernel can take it over 100 %); the machine, at this share of
// every core.
const SATURATED_PCT = 90;

/** The load generator is saturated while the area mostly waits for it. */
const loadGeneratorBound = (run: LoadRun) => run.loadGeneratorCpuPct >= SATURATED_PCT && run.loadGeneratorCpuPct >= 2 * run.serverCpuPct;

/** What limited a run, from its CPU figures: each saturated process, and the machine when every core was busy; "—" for none. */
function limitOf(run: LoadRun, cores: number): string {
  const limits: string[] = [];
  if (run.loadGeneratorCpuPct >= SATURATED_PCT) limits.push('load generator');
  if (run.serverCpuPct >= SATURATED_PCT) limits.push('server');
  if (run.machineCpuPct >= SATURATED_PCT * cores) limits.push(run.otherCpuPct >= 50 ? 'machine (with other load)' : 'machine');
  return limits.length > 0 ? limits.join(', ') : '—';
}

function row(scenario: string, run: LoadRun, cores: number, target: string, pass: boolean | null, note?: string): RegistryVerdict {
  return {
    scenario,
    reqPerSec: run.reqPerSec,
    p50Ms: run.p50Ms,
    p99Ms: run.p99Ms,
    mbPerSec: mbPerSec(run),
    serverCpuPct: run.serverCpuPct,
    postgresCpuPct: run.postgresCpuPct,
    loadGeneratorCpuPct: run.loadGeneratorCpuPct,
    otherCpuPct: run.otherCpuPct,
    limit: limitOf(run, cores),
    target,
    pass,
    note,
  };
}

/** A measured scenario against its rule; any run with more than 0.1 % unexpected answers or errors fails it. */
function judged(
  scenario: string,
  figures: RegistryScenario,
  cores: number,
  target: string,
  rule: { maxP99Ms?: number; minReqPerSec?: number },
): RegistryVerdict {
  const run = figures.median;
  let pass: boolean | null = rule.maxP99Ms === undefined && rule.minReqPerSec === undefined ? null : true;
  if (rule.maxP99Ms !== undefined && run.p99Ms > rule.maxP99Ms) pass = false;
  if (rule.minReqPerSec !== undefined && run.reqPerSec < rule.minReqPerSec) pass = false;
  let note: string | undefined;
  if (figures.runs.every((r) => r.completed === 0 && r.errors === 0 && r.timeouts === 0)) {
    // Nothing failed, nothing finished: every body took longer than a run to arrive.
    return row(scenario, run, cores, target, null, `no answer completed within a ${run.durationS} s run`);
  }
  // Below a throughput target while the load generator is the saturated side: the figure is the load
  // generator's ceiling, which says nothing about the server either way.
  if (pass === false && rule.minReqPerSec !== undefined && run.p99Ms <= (rule.maxP99Ms ?? Infinity) && loadGeneratorBound(run)) {
    pass = null;
    note = 'not judged: the load generator is the bottleneck';
  }
  // Runs in which nothing completed (nor failed) are left out of the error share.
  const worstShare = Math.max(0, ...figures.runs.filter((r) => r.completed + r.errors + r.timeouts > 0).map(unexpectedShare));
  if (worstShare > UNEXPECTED_LIMIT) {
    note = `${(worstShare * 100).toFixed(2)} % unexpected answers or errors`;
    pass = false;
  }
  return row(scenario, run, cores, target, pass, note);
}

function coldRow(scenario: string, figures: RegistryScenario, cores: number, limitMs = BROWSE_SEARCH_P99_MS): RegistryVerdict | null {
  const cold = figures.cold;
  if (!cold) return null;
  const within = cold.p99Ms <= limitMs;
  return row(`${scenario} — cold (first run)`, cold, cores, `not judged (p99 ${within ? 'within' : 'over'} ${limitMs} ms)`, null);
}

function sizeVerdicts(size: SizeFigures, real: boolean, cores: number): RegistryVerdict[] {
  const s = size.scenarios;
  const name = real ? `real (${size.namespaces.toLocaleString('en')} ns)` : `${size.namespaces.toLocaleString('en')} ns`;
  const latency = `p99 ≤ ${BROWSE_SEARCH_P99_MS} ms`;
  const browse = `${name}: browse, page of 20 by name (${size.browsePages.toLocaleString('en')} pages)`;
  const search = `${name}: search findByPrefixStartsWith (${size.searchStarts.toLocaleString('en')} starts)`;
  const pages = `${name}: namespace page, HTML, ${NAMESPACE_PAGE_CONNECTIONS} connections (${size.namespacePages.toLocaleString('en')} prefixes)`;
  const gzipRule = real ? { minReqPerSec: DATASET_GZIP_MIN_REQ_PER_SEC } : {};
  const gzipTarget = real ? `≥ ${DATASET_GZIP_MIN_REQ_PER_SEC} req/s` : '—';
  const gzipMb = `${(size.dataset.gzipBytes / 1e6).toFixed(2)} MB`;
  return [
    coldRow(browse, s.browse, cores),
    judged(`${browse} — median`, s.browse, cores, latency, { maxP99Ms: BROWSE_SEARCH_P99_MS }),
    coldRow(search, s.search, cores),
    judged(`${search} — median`, s.search, cores, latency, { maxP99Ms: BROWSE_SEARCH_P99_MS }),
    ...(s.namespacePage
      ? [
          coldRow(pages, s.namespacePage, cores, NAMESPACE_PAGE_P99_MS),
          judged(`${pages} — median`, s.namespacePage, cores, `p99 ≤ ${NAMESPACE_PAGE_P99_MS} ms`, { maxP99Ms: NAMESPACE_PAGE_P99_MS }),
        ]
      : []),
    judged(`${name}: dataset, If-None-Match → 304`, s.dataset304, cores, '—', {}),
    judged(`${name}: dataset full, gzip (${gzipMb}), autocannon`, s.datasetGzip, cores, gzipTarget, gzipRule),
    judged(`${name}: dataset full, gzip (${gzipMb}), node:http pool`, s.datasetGzipPool, cores, gzipTarget, gzipRule),
  ].filter((v): v is RegistryVerdict => v !== null);
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function sizeFigures(size: SizeFigures, real: boolean): Figure[] {
  const tag = real ? 'real' : `${size.namespaces.toLocaleString('en')} ns`;
  const b = size.build.median;
  const figures: Figure[] = [];
  if (size.insertMs !== undefined) {
    figures.push({ figure: `${tag}: insert of ${size.syntheticNamespaces.toLocaleString('en')} synthetic namespaces`, value: formatMs(size.insertMs), target: '', pass: null });
  }
  figures.push(
    {
      figure: `${tag}: dataset build (median of ${size.build.runs.length}; process start to exit ${formatMs(b.processMs)})`,
      value: formatMs(b.buildMs),
      target: real ? '' : `< ${BUILD_MAX_MS / 1000} s`,
      pass: real ? null : b.buildMs < BUILD_MAX_MS,
    },
    {
      figure: `${tag}: dataset files (plain / gzip / rewritten / rewritten gzip)`,
      value: `${mb(b.plainBytes)} / ${mb(b.gzipBytes)} / ${mb(b.rewrittenBytes)} / ${mb(b.rewrittenGzipBytes)}`,
      target: '',
      pass: null,
    },
    {
      figure: `${tag}: build process RSS before the build / peak (VmHWM, worst run)`,
      value: `${b.before.rssMb} MB / ${size.build.worstPeakRssMb} MB`,
      target: '',
      pass: null,
    },
    real
      ? { figure: `${tag}: build RSS trend (the real registry is a single page: no quarters)`, value: 'n/a', target: '', pass: null }
      : {
          figure: `${tag}: build RSS trend: max over the last quarter minus max over the second quarter of the namespaces (worst run; ${b.secondQuarterMaxRssMb ?? '?'} → ${b.lastQuarterMaxRssMb ?? '?'} MB in the median run)`,
          value: size.build.worstTrendMb === null ? 'n/a' : `${size.build.worstTrendMb >= 0 ? '+' : ''}${size.build.worstTrendMb} MB`,
          target: `does not grow with the registry (≤ +${BUILD_MEMORY_TREND_LIMIT_MB} MB)`,
          pass: size.build.worstTrendMb === null ? null : size.build.worstTrendMb <= BUILD_MEMORY_TREND_LIMIT_MB,
        },
    { figure: `${tag}: registry area start to ready`, value: formatMs(size.server.startMs), target: '', pass: null },
    {
      figure: `${tag}: registry area RSS after start / after the load / peak`,
      value: `${size.server.afterStart.rssMb} MB / ${size.server.afterScenarios?.rssMb ?? '?'} MB / ${size.server.afterScenarios?.peakRssMb ?? '?'} MB`,
      target: '',
      pass: null,
    },
  );
  return figures;
}

/** The targets, judged on the median runs (cold runs are shown, not judged). */
export function judge(results: RegistryBenchResults): { verdicts: RegistryVerdict[]; figures: Figure[] } {
  const cores = results.machine.cpuCount;
  const verdicts: RegistryVerdict[] = [];
  const figures: Figure[] = [];
  const real = results.real;
  const scale = results.scale && !('skipped' in results.scale) ? results.scale : null;
  if (real) {
    verdicts.push(...sizeVerdicts(real, true, cores));
    figures.push(...sizeFigures(real, true));
  }
  if (scale) {
    verdicts.push(...sizeVerdicts(scale, false, cores));
    figures.push(...sizeFigures(scale, false));
  }
  if (real && scale) {
    const growth = scale.build.worstPeakRssMb - real.build.worstPeakRssMb;
    figures.push({
      figure: `build peak RSS, ${scale.namespaces.toLocaleString('en')} ns minus real (for scale: the plain file is ${mb(scale.build.median.plainBytes - real.build.median.plainBytes)} larger)`,
      value: `${growth >= 0 ? '+' : ''}${growth} MB`,
      target: '',
      pass: null,
    });
  }
  const rollup = results.rollup;
  if (rollup && !('skipped' in rollup)) {
    figures.push(
      { figure: `rollup: fill Redis with one day of ${rollup.prefixes.toLocaleString('en')} prefixes (pipelined)`, value: formatMs(rollup.fillMs), target: '', pass: null },
      { figure: `rollup: rollUpUsage of that day (${rollup.prefixes.toLocaleString('en')} prefixes)`, value: formatMs(rollup.rollupMs), target: `< ${ROLLUP_MAX_MS / 1000} s`, pass: rollup.rollupMs < ROLLUP_MAX_MS },
      { figure: 'rollup: the same day again (upserts over its rows)', value: formatMs(rollup.rerunMs), target: '', pass: null },
      {
        figure: `rollup: usage_daily rows / visits / unique visitors (Redis's PFCOUNT; ${rollup.visitors.toLocaleString('en')} written) / with HLL`,
        value: `${rollup.rows.toLocaleString('en')} / ${rollup.rowVisits.toLocaleString('en')} / ${rollup.rowVisitors.toLocaleString('en')} / ${rollup.rowsWithHll.toLocaleString('en')}`,
        target: `${rollup.prefixes.toLocaleString('en')} / ${rollup.visits.toLocaleString('en')} / ${rollup.estimatedVisitors.toLocaleString('en')} / ${rollup.prefixes.toLocaleString('en')}`,
        pass: rollup.verified,
      },
    );
  }
  return { verdicts, figures };
}

const VERDICT_HEADER = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'MB/s', 'CPU area', 'CPU Postgres', 'CPU load gen.', 'CPU other', 'limited by', 'target', 'result'];

const verdictRows = (verdicts: RegistryVerdict[]): string[][] =>
  verdicts.map((v) =>
    verdictRow(v, [num(v.mbPerSec, 1), pct(v.serverCpuPct), pct(v.postgresCpuPct), pct(v.loadGeneratorCpuPct), pct(v.otherCpuPct), v.limit]),
  );


const SCENARIO_LABELS: Record<ScenarioName, string> = {
  browse: 'browse',
  search: 'search',
  namespacePage: 'namespace page',
  dataset304: 'dataset 304',
  datasetGzip: 'dataset gzip (autocannon)',
  datasetGzipPool: 'dataset gzip (node:http pool)',
};

function sanityLines(results: RegistryBenchResults): string[] {
  const lines: string[] = [];
  for (const size of [results.real, results.scale]) {
    if (!size || 'skipped' in size) continue;
    for (const [name, figures] of Object.entries(size.scenarios) as [ScenarioName, RegistryScenario][]) {
      const cold = figures.cold ? `; cold run ${figures.cold.reqPerSec.toLocaleString('en')} req/s, p99 ${figures.cold.p99Ms} ms` : '';
      lines.push(describeRuns(`${size.label} ${SCENARIO_LABELS[name]}`, figures, cold));
    }
    lines.push(
      `${size.label}: dataset served ${size.dataset.namespaces.toLocaleString('en')} namespaces (${mb(size.dataset.plainBytes)} decoded), revalidation ${size.dataset.revalidationStatus}; ` +
        `registry area log lines at level error: ${size.server.errorLines ?? '?'}`,
    );
  }
  return lines;
}

function method(results: RegistryBenchResults): string[] {
  const st = results.settings;
  return [
    `Load: ${st.connections} connections from the orchestrating process, the registry area (\`node dist/src/registry/main.js\`, default settings but \`RATE_LIMITS=false\`: one address sends everything) in a child process. ` +
      `Each measured scenario: a ${st.warmupS} s warm-up, then ${st.runs} runs of ${st.durationS} s; the median run by req/s is reported with its own p50/p99 ` +
      `(every answer's response time). CPU columns, over the median run's wall time in % of one core (100 % = one core): the area's process, the Postgres backends ` +
      `connected to the bench database, the load generator (this process), and the rest of the machine (from /proc/stat: other engineers' work, Redis, the kernel). ` +
      `"limited by": each process at ≥ ${SATURATED_PCT} % of a core, and "machine" when together everything used ≥ ${SATURATED_PCT} % of every core; "—" when nothing was saturated (waiting, not computing). ` +
      `A throughput target is not judged on a run whose load generator was saturated while the area used less than half as much CPU: that run measures the load generator.`,
    `Browse: \`GET /restApi/namespaces?page=P&size=20&sort=name,asc\` for every page P of the registry, in a shuffled order that each connection cycles through. ` +
      `Search: \`GET /restApi/namespaces/search/findByPrefixStartsWith?prefixStart=S&page=0&size=20\` for ${results.searchStarts.all.toLocaleString('en')} starts S ` +
      `(the union of the ${results.searchStarts.real.toLocaleString('en')} distinct 1–3-character starts of real prefixes and ${results.searchStarts.synthetic.toLocaleString('en')} drawn from synthetic ones), the same list at both sizes. ` +
      `The area caches whole answers per URL per registry version (and for 10 s at most), so a run mixes misses (first request of a URL, and again after expiry) and hits: ` +
      `the **cold** row is the very first run on a freshly started area (no warm-up, every cache empty); the **median** row comes after the cold run and a warm-up.`,
    `Namespace page: \`GET /registry/{prefix}\` with a browser's Accept (the HTML page: the namespace, its resources with their institutions, link-check states and 12 months of usage) ` +
      `for every prefix of the real registry, the same list at both sizes, on ${NAMESPACE_PAGE_CONNECTIONS} connections (the issue's figure); cold and median runs as above.`,
    `Dataset: built first by \`runRecordedBuild\` (what the worker's job runs; forced, ${st.buildRuns} times, each in a child process whose peak RSS is its VmHWM); the last build is served. ` +
      `\`GET /resolutionApi/getResolverDataset\` with \`Accept-Encoding: gzip\` and \`If-None-Match: <gzip ETag>\` (304), and the full gzip download, by autocannon (which turns every body into a string) ` +
      `and by a pool of ${st.connections} node:http keep-alive requests that count the bytes and drop them; MB/s counts compressed bytes received.`,
    `Rollup: one day (${results.rollup && !('skipped' in results.rollup) ? results.rollup.day : 'a fixed past day'}) of counters for every synthetic prefix written into Redis ` +
      `(${st.rollupRedisUrl.replace(/\/\/[^@/]*@/, '//')}; a visits hash, the prefix set, a HyperLogLog of 1–5 visitors per prefix), then \`rollUpUsage(db, redis, { day })\` timed in the orchestrating process.`,
  ];
}

export function markdownReport(results: RegistryBenchResults, verdicts: RegistryVerdict[], figures: Figure[]): string {
  const m = results.machine;
  return [
    `# Registry benchmark — ${results.startedAt}`,
    '',
    `${describeMachine(m)} ` +
      `Dataset: ${results.dataset.namespaces.toLocaleString('en')} namespaces, ${results.dataset.resources.toLocaleString('en')} resources; ` +
      `scale: the same plus ${results.settings.scaleNamespaces.toLocaleString('en')} synthetic namespaces with one resource each.`,
    '',
    ...method(results).flatMap((line) => [line, '']),
    ...reportBody('markdown', { header: VERDICT_HEADER, rows: verdictRows(verdicts) }, figures, sanityLines(results)),
  ].join('\n');
}

export function textReport(results: RegistryBenchResults, verdicts: RegistryVerdict[], figures: Figure[]): string {
  return reportBody('text', { header: VERDICT_HEADER, rows: verdictRows(verdicts) }, figures, sanityLines(results)).join('\n');
}
