import { describeMachine, formatMs, markdownTable, textTable, type ResultsHeader } from '../lib/results.js';
import type { MemoryFigures } from '../lib/server-processes.js';
import type { AttackFigures, SoloCase } from './attack.js';
import type { CpuShare } from './cpu-share.js';
import type { Area } from './openapi-operations.js';
import type { ProbeFigures } from './probe.js';

/** The issue's targets, on a quiet machine. */
export const MAX_PROBE_P99_MS = 100;
export const MAX_LOOP_DELAY_MS = 50;

/** Longest event-loop delays (loop-reading.ts): in wall time, and counting only the CPU time in it (judged). */
export interface LoopFigures {
  maxMs: number;
  busyMaxMs: number;
}

export interface RouteResult {
  area: Area;
  /** `METHOD /documented/path`. */
  route: string;
  cases: number;
  /** The attacking client's address. */
  attacker: string;
  /** Statuses the document lists for the operation (a 5xx among them is an answer, not a failure). */
  documentedStatuses: string[];
  /** Each case sent alone first, in turn: the ones worth reading (notableAlone). */
  solo: SoloCase[];
  /** The flood. */
  attack: AttackFigures;
  /** Event-loop delay in the attacked area (each case alone and the flood), and in the other one (the flood). */
  loop: { attacked: LoopFigures; other: LoopFigures };
  probe: Record<Area, ProbeFigures>;
  /** The attacked area's memory before and after its attack. */
  memory: { before: MemoryFigures; after: MemoryFigures };
  /** CPU over the route's attack (alone and flood): the attacked area's, and the machine's outside the benchmark. */
  cpu: CpuShare;
  pass?: boolean;
  reasons?: string[];
}

export interface HostileResults extends ResultsHeader {
  settings: {
    windowMs: number;
    connections: number;
    timeoutMs: number;
    routes: string | null;
    strict: boolean;
    redisUrl: string;
    queuePrefix: string;
    /** Settings the areas ran with beyond their defaults. */
    areaSettings: Record<string, string>;
  };
  setup: { importMs: number; datasetBuildMs: number; resolverStartMs: number; registryStartMs: number };
  probe: { resolver: { path: string; perSecond: number; addresses: string[] }; registry: { path: string; perSecond: number; addresses: string[] } };
  operations: { resolver: number; registry: number; attacked: number; cases: number };
  /** A window of the same length with no attack: what the machine's own noise gives. */
  quiet?: { loop: Record<Area, LoopFigures>; probe: Record<Area, ProbeFigures>; outsideCpuPct: number };
  routes: RouteResult[];
  serviceErrorLines?: Record<Area, number>;
  failed?: string[];
}

const statusText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}×${n}`)
    .join(', ');

/** Every answer of the attack, failures and timeouts included. */
export function attackStatuses(attack: AttackFigures): string {
  const all: Record<string, number> = { ...attack.statuses };
  for (const [code, n] of Object.entries(attack.failures)) all[`no answer (${code})`] = n;
  if (attack.timeouts > 0) all.timeout = attack.timeouts;
  return statusText(all);
}

/**
 * A note for a probe figure the route's own work does not explain: its area's loop was never held long, but
 * was late far more than that (waiting for a core), e.g. while other work used the machine.
 */
export function contentionNote(route: RouteResult): string | null {
  const loop = route.loop.attacked;
  if (loop.busyMaxMs > MAX_LOOP_DELAY_MS || loop.maxMs < 2 * Math.max(loop.busyMaxMs, 10)) return null;
  return `the loop was held ≤ ${formatMs(loop.busyMaxMs)} but ${formatMs(loop.maxMs)} late: CPU contention, ${route.cpu.outsidePct} % of a core used outside the benchmark's processes`;
}

/** Judges a route against the targets; records and returns the reasons it fails (none: it passes). */
export function judgeRoute(route: RouteResult): string[] {
  const reasons: string[] = [];
  for (const area of ['resolver', 'registry'] as const) {
    const probe = route.probe[area];
    if (probe.p99Ms !== null && probe.p99Ms > MAX_PROBE_P99_MS) reasons.push(`${area} probe p99 ${formatMs(probe.p99Ms)}`);
    const refused = Object.entries(probe.statuses).filter(([status]) => status !== '200');
    if (refused.length > 0) reasons.push(`${area} probe answered ${statusText(Object.fromEntries(refused))}`);
  }
  if (route.loop.attacked.busyMaxMs > MAX_LOOP_DELAY_MS) reasons.push(`event loop held ${formatMs(route.loop.attacked.busyMaxMs)}`);
  const soloTimeouts = route.solo.filter((c) => c.answer === 'timeout').length;
  if (soloTimeouts > 0) reasons.push(`${soloTimeouts} cases unanswered alone within the timeout`);
  const solo5xx = route.solo.filter((c) => c.answer.startsWith('5') && !route.documentedStatuses.includes(c.answer));
  if (solo5xx.length > 0) reasons.push(`undocumented ${solo5xx.map((c) => `${c.answer} to "${c.label}"`).join(', ')}`);
  const undocumented5xx = Object.entries(route.attack.statuses).filter(([status]) => status.startsWith('5') && !route.documentedStatuses.includes(status));
  if (undocumented5xx.length > 0) reasons.push(`undocumented ${statusText(Object.fromEntries(undocumented5xx))} in the flood`);
  if (route.attack.timeouts > 0) reasons.push(`${route.attack.timeouts} unanswered within the timeout`);
  route.pass = reasons.length === 0;
  route.reasons = reasons;
  return reasons;
}

/** Whether a failing route missed only the probe target (not its own fault: no loop held, no 5xx, all answered). */
const onlyProbes = (r: RouteResult) => (r.reasons ?? []).every((reason) => / probe p99 /.test(reason));

/** The reasons a route fails, with the contention note when the probes' figures are not its own. */
const verdictText = (r: RouteResult) => {
  const note = onlyProbes(r) ? contentionNote(r) : null;
  return `${r.reasons!.join('; ')}${note ? ` (${note})` : ''}`;
};

const ms = (value: number | null) => (value === null ? '—' : formatMs(value));
const slowest = (r: RouteResult) => `${formatMs(r.attack.slowestMs)}${r.attack.slowestCase ? ` (${r.attack.slowestCase})` : ''}`;

/** The case that held the loop longest when sent alone (the slowest answer when none held it measurably). */
export function costliestAlone(solo: readonly SoloCase[]): SoloCase | undefined {
  return [...solo].sort((a, b) => b.loopBusyMs - a.loopBusyMs || b.ms - a.ms)[0];
}

/** Below these, a case sent alone is not worth a line in the results. */
const NOTABLE_LOOP_MS = 10;
const NOTABLE_ANSWER_MS = 100;

/** The costliest case alone and every case that held the loop, took long, failed or answered 5xx; the results keep only these. */
export function notableAlone(solo: readonly SoloCase[]): SoloCase[] {
  const costliest = costliestAlone(solo);
  return solo.filter(
    (c) => c === costliest || c.loopBusyMs >= NOTABLE_LOOP_MS || c.ms >= NOTABLE_ANSWER_MS || c.answer.startsWith('5') || !/^\d+$/.test(c.answer),
  );
}

function costliestText(r: RouteResult): string {
  const c = costliestAlone(r.solo);
  return c ? `${c.label}: ${c.answer} in ${formatMs(c.ms)}, loop ${formatMs(c.loopBusyMs)}` : '—';
}

const HEADER = [
  'area',
  'route',
  'cases',
  'costliest case alone (answer, loop held)',
  'flood requests',
  'slowest answer in the flood (case)',
  'max event-loop delay: busy (wall)',
  'probe p99 resolver',
  'probe p99 registry',
  'CPU: attacked area / outside',
  'flood statuses',
  'verdict',
];

function row(r: RouteResult, escape: (s: string) => string): string[] {
  return [
    r.area,
    escape(r.route),
    String(r.cases),
    escape(costliestText(r)),
    r.attack.requests.toLocaleString('en'),
    escape(slowest(r)),
    `${formatMs(r.loop.attacked.busyMaxMs)} (${formatMs(r.loop.attacked.maxMs)})`,
    ms(r.probe.resolver.p99Ms),
    ms(r.probe.registry.p99Ms),
    `${r.cpu.attackedPct} % / ${r.cpu.outsidePct} %`,
    attackStatuses(r.attack),
    r.pass ? 'pass' : `FAIL: ${escape(verdictText(r))}`,
  ];
}

// A `|` in a cell would end it; `{` and `*` are left to the reader's markdown.
const escapeMarkdown = (s: string) => s.replace(/\|/g, '\\|');

function quietLine(results: HostileResults): string {
  const q = results.quiet;
  if (!q) return 'No quiet window was measured.';
  return (
    `Quiet window (no attack, ${results.settings.windowMs} ms): event-loop delay max resolver ${formatMs(q.loop.resolver.busyMaxMs)} busy (${formatMs(q.loop.resolver.maxMs)} wall), ` +
    `registry ${formatMs(q.loop.registry.busyMaxMs)} busy (${formatMs(q.loop.registry.maxMs)} wall); ` +
    `probe p99 resolver ${ms(q.probe.resolver.p99Ms)} (${q.probe.resolver.requests} requests), registry ${ms(q.probe.registry.p99Ms)} (${q.probe.registry.requests} requests); ` +
    `${q.outsideCpuPct} % of a core used outside the benchmark's processes. ` +
    'This is the machine\'s own noise floor: a route whose figures are near it was not what made them.'
  );
}

function method(results: HostileResults): string[] {
  const s = results.settings;
  const p = results.probe;
  return [
    `Both areas run as processes of their own (\`node dist/src/resolver/main.js\`, \`node dist/src/registry/main.js\`) on the benchmark's database (the dataset imported, ` +
      `the resolver dataset built once into a temporary DATASET_DIR), Redis ${s.redisUrl}, QUEUE_PREFIX \`${s.queuePrefix}\`; no worker runs (it would fetch outside addresses). ` +
      `Settings beyond the defaults: ${Object.entries(s.areaSettings).map(([k, v]) => `${k}=${v}`).join(', ')}. Rate limits are on at their defaults: a 429 is a valid answer, its cost is what is measured.`,
    `Routes: every operation of both OpenAPI documents as the areas serve them (GET /openapi.json): ${results.operations.resolver} resolver and ${results.operations.registry} registry operations` +
      `${s.routes ? `, of which ${results.operations.attacked} match HOSTILE_ROUTES=\`${s.routes}\`` : ''}; ${results.operations.cases.toLocaleString('en')} cases in all. ` +
      'Cases are derived from each operation\'s description (example request; each parameter at its largest, overlong, wrong-enum, `__proto__`, NUL and non-UTF-8 values; every query parameter 100 times; ' +
      'odd case of the path; a wrong bearer token; for bodies: arrays at and over maxItems, long strings, 10,000-deep and 100,000-key JSON, 16 MiB without credentials) plus hand-written ones for the known findings (bench/hostile/route-cases.ts).',
    `Attack: one route at a time, from an address of the route's own (127.1.x.y). First each case alone, in turn, with the area's event-loop delay read around it ` +
      `("costliest case alone": the case that held the loop longest, else the slowest). Then the flood: ${s.connections} connections each sending its next case as soon as it has an answer, ` +
      `for ${s.windowMs} ms and on until every case was sent once ("slowest answer in the flood": its slowest request, often one that only waited behind a costly one). ` +
      `An answer slower than ${formatMs(s.timeoutMs)} is given up (timeout).`,
    `Probe: a separate process sends \`GET ${p.resolver.path}\` to the resolver ${p.resolver.perSecond}/s from ${p.resolver.addresses.join(', ')} and \`GET ${p.registry.path}\` ` +
      `to the registry ${p.registry.perSecond}/s from ${p.registry.addresses.join(', ')} at a steady rate (open loop), the whole run long; a route's p99 is over the requests sent during its attack ` +
      '(unanswered ones count with the time they had waited).',
    'Event-loop delay: a monitor preloaded into each area (bench/hostile/loop-monitor.ts, `--import`; nothing in src/), read and restarted over IPC around each case alone and around the flood: ' +
      'the longest time the loop was late on its 5 ms timer (wall), and the same counting only the main thread\'s CPU time in it (busy, from /proc/self/task/<pid>/schedstat: the work that held the loop, one request or several handled in one go). ' +
      'On a shared machine the wall figure also holds time spent waiting for a core; the busy figure is the one judged.',
    'CPU: the attacked area\'s CPU time over its route\'s attack in % of one core, and the machine\'s busy time less the processes of the benchmark (areas, probe, harness) in % of one core: ' +
      'Postgres and Redis serving the areas, and any other work on the machine (on a shared machine, other people\'s tests), from /proc.',
    `Targets (issue 21): the probes' p99 ≤ ${MAX_PROBE_P99_MS} ms in both areas (over the whole attack on the route, alone and flood) and the attacked area's event loop never held (busy) > ${MAX_LOOP_DELAY_MS} ms, on a quiet machine; ` +
      'and no 5xx that the route\'s documentation does not list, no attack request unanswered, no probe request refused. A route failing any of these is marked FAIL with the reasons.',
  ];
}

function failureLists(results: HostileResults): string[] {
  const failing = results.routes.filter((r) => !r.pass);
  const own = failing.filter((r) => !onlyProbes(r));
  const probesOnly = failing.filter(onlyProbes);
  const item = (r: RouteResult) => `- ${r.area} \`${r.route}\`: ${r.reasons!.join('; ')}. Costliest alone: ${costliestText(r)}.`;
  return [
    `**${failing.length} of ${results.routes.length} routes miss a target.**`,
    '',
    `Routes whose own work misses it (the loop held > ${MAX_LOOP_DELAY_MS} ms, an undocumented 5xx, no answer) — ${own.length}:`,
    '',
    ...(own.length > 0 ? own.map(item) : ['- none']),
    '',
    `Routes that miss only the probe target (p99 > ${MAX_PROBE_P99_MS} ms with the loop never held that long: compare the CPU used outside the benchmark) — ${probesOnly.length}:`,
    '',
    ...(probesOnly.length > 0 ? probesOnly.map((r) => `- ${r.area} \`${r.route}\`: ${verdictText(r)}${contentionNote(r) ? '' : `; ${r.cpu.outsidePct} % of a core used outside the benchmark's processes`}.`) : ['- none']),
    '',
  ];
}

export function markdownReport(results: HostileResults): string {
  const lines = [
    `# Hostile benchmark — ${results.startedAt}`,
    '',
    `${describeMachine(results.machine)} Dataset: ${results.dataset.namespaces.toLocaleString('en')} namespaces, ${results.dataset.resources.toLocaleString('en')} resources (${results.dataset.path}).`,
    '',
    'Run: `npm run bench:hostile` (about 9 minutes); `HOSTILE_WINDOW_MS` shortens the flood per route, `HOSTILE_ROUTES=<regex>` picks routes by `area METHOD /path`, ' +
      '`HOSTILE_STRICT=1` exits 1 when a route misses a target.',
    '',
    ...method(results).flatMap((line) => [line, '']),
    quietLine(results),
    '',
    ...failureLists(results),
    'Every route:',
    '',
    markdownTable(HEADER, results.routes.map((r) => row(r, escapeMarkdown))),
    '',
  ];
  if (results.serviceErrorLines) lines.push(`Error-level log lines during the run: resolver ${results.serviceErrorLines.resolver}, registry ${results.serviceErrorLines.registry}.`, '');
  return lines.join('\n');
}

export function textReport(results: HostileResults): string {
  const failing = results.routes.filter((r) => !r.pass);
  return [
    quietLine(results),
    '',
    `${failing.length} of ${results.routes.length} routes miss a target${failing.length > 0 ? ':' : '.'}`,
    ...(failing.length > 0 ? ['', textTable(HEADER, failing.map((r) => row(r, (s) => s)))] : []),
    '',
  ].join('\n');
}
