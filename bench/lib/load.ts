import autocannon from 'autocannon';
import type { BenchRequest } from './workload.js';

export interface LoadSettings {
  connections: number;
  durationS: number;
  warmupS: number;
  runs: number;
}

export interface RunFigures {
  /** Mean of autocannon's per-second request counts. */
  reqPerSec: number;
  /** Percentiles of every answer's response time as autocannon measures it, to 0.01 ms. */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  /** autocannon's own percentiles (its histogram keeps whole milliseconds). */
  autocannonP50Ms: number;
  autocannonP99Ms: number;
  completed: number;
  /** Response bytes received (headers and body as sent on the wire, compressed when gzip), all answers. */
  bytes: number;
  durationS: number;
  statusCounts: Record<string, number>;
  non2xx: number;
  /** Answers whose status differs from the one the same request got when checked before the load. */
  unexpected: number;
  errors: number;
  timeouts: number;
}

export interface ScenarioFigures {
  /** The run with the median req/s (its own latencies go with it). */
  median: RunFigures;
  runs: RunFigures[];
}

export interface LoadTarget {
  name: string;
  port: number;
  requests: BenchRequest[];
}

/**
 * Deals the requests round-robin into one list per connection, so together the connections send every
 * request and each one cycles through its own share of the mix (autocannon would otherwise start every
 * connection at the first request and build each connection's copy of the whole list).
 */
function dealRequests(requests: BenchRequest[], connections: number): BenchRequest[][] {
  if (requests.length === 0) throw new Error('no requests to send');
  const hands: BenchRequest[][] = Array.from({ length: connections }, () => []);
  requests.forEach((request, i) => hands[i % connections]!.push(request));
  // Fewer requests than connections: the short hands take one request each in turn.
  hands.forEach((hand, i) => {
    if (hand.length === 0) hand.push(requests[i % requests.length]!);
  });
  return hands;
}

/** Every response time of a run, for percentiles finer than autocannon's whole milliseconds. */
export class ResponseTimes {
  private times = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.times.length) {
      const bigger = new Float64Array(this.times.length * 2);
      bigger.set(this.times);
      this.times = bigger;
    }
    this.times[this.count++] = ms;
  }

  summary(): { p50: number; p99: number; mean: number; max: number } {
    const sorted = this.times.slice(0, this.count).sort();
    const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
    let sum = 0;
    for (const t of sorted) sum += t;
    const round = (ms: number) => Math.round(ms * 100) / 100;
    return { p50: round(at(50)), p99: round(at(99)), mean: round(sum / sorted.length), max: round(sorted[sorted.length - 1] ?? NaN) };
  }
}

/** One autocannon run of `durationS` seconds against a target. */
export async function runOnce(target: LoadTarget, connections: number, durationS: number): Promise<RunFigures> {
  const tally = { unexpected: 0 };
  const hands = dealRequests(target.requests, connections).map((hand) =>
    hand.map((request): autocannon.Request => {
      const expected = request.expectedStatus ?? request.intendedStatus;
      return {
        method: request.method,
        path: request.path,
        headers: request.headers,
        body: request.body,
        onResponse: (status) => {
          if (status !== expected) tally.unexpected++;
        },
      };
    }),
  );
  let dealt = 0;
  let bytes = 0;
  const times = new ResponseTimes();
  const instance = autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections,
    duration: durationS,
    // Replaced per connection by setupClient before anything is sent.
    requests: [{ method: 'GET', path: '/' }],
    setupClient: (client) => client.setRequests(hands[dealt++ % hands.length]!),
  });
  instance.on('response', (_client: unknown, _status: number, resBytes: number, responseTime: number) => {
    times.add(responseTime);
    bytes += resBytes;
  });
  const result = await instance;
  const latency = times.summary();
  const statusCounts: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statusCounts[status] = count;
  const completed = Object.values(statusCounts).reduce((sum, n) => sum + n, 0);
  return {
    reqPerSec: Math.round(result.requests.average),
    p50Ms: latency.p50,
    p99Ms: latency.p99,
    meanMs: latency.mean,
    maxMs: latency.max,
    autocannonP50Ms: result.latency.p50,
    autocannonP99Ms: result.latency.p99,
    completed,
    bytes,
    durationS: result.duration,
    statusCounts,
    non2xx: result.non2xx,
    unexpected: tally.unexpected,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

export function medianRun(runs: RunFigures[]): RunFigures {
  const sorted = [...runs].sort((a, b) => a.reqPerSec - b.reqPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/**
 * Measures several targets the same way: a warm-up of each, then the runs taken in turn (A B A B ...), so
 * that a change in the machine's background load during the measurement affects them alike.
 */
export async function measureTogether(
  targets: LoadTarget[],
  settings: LoadSettings,
  onRun?: (target: string, run: number, figures: RunFigures) => void,
): Promise<Record<string, ScenarioFigures>> {
  for (const target of targets) await runOnce(target, settings.connections, settings.warmupS);
  const runs: Record<string, RunFigures[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (let run = 1; run <= settings.runs; run++) {
    for (const target of targets) {
      const figures = await runOnce(target, settings.connections, settings.durationS);
      runs[target.name]!.push(figures);
      onRun?.(target.name, run, figures);
    }
  }
  return Object.fromEntries(Object.entries(runs).map(([name, list]) => [name, { median: medianRun(list), runs: list }]));
}

export async function measure(target: LoadTarget, settings: LoadSettings, onRun?: (target: string, run: number, figures: RunFigures) => void): Promise<ScenarioFigures> {
  return (await measureTogether([target], settings, onRun))[target.name]!;
}
