/**
 * Load runs of the registry benchmark: autocannon through the resolver benchmark's runOnce, or a pool of
 * node:http keep-alive requests that discard the body (for downloads too big for autocannon, which turns
 * every body into a string). Each run also records how busy the server and this process (the load
 * generator) were, in % of one core, so the report can say which of the two limits a figure.
 */
import http from 'node:http';
import { machineBusyMs, processCpuMs } from '../lib/cpu-sampler.js';
import { medianRun, ResponseTimes, runOnce, type LoadSettings, type RunFigures } from '../lib/load.js';
import type { BenchRequest } from '../lib/workload.js';

export type Generator = 'autocannon' | 'node:http pool';

export interface LoadRun extends RunFigures {
  generator: Generator;
  /** CPU time over wall time of the run, in % of one core (200 % = both cores of a 2-core machine). */
  serverCpuPct: number;
  loadGeneratorCpuPct: number;
  /** The Postgres backends connected to the bench database (the area's pool), null when not looked at. */
  postgresCpuPct: number | null;
  /** Every process of the machine (/proc/stat), in % of one core. */
  machineCpuPct: number;
  /** The machine less the three above: other work on the machine (other engineers' tests, Redis, the kernel's own threads). */
  otherCpuPct: number;
}

export interface RegistryScenario {
  generator: Generator;
  /** Distinct requests the connections cycle through. */
  requestCount: number;
  /** The first run against a server just started, without warm-up (empty caches). */
  cold?: LoadRun;
  /** The run with the median req/s. */
  median: LoadRun;
  runs: LoadRun[];
}

function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function cpuOfPids(pids: readonly number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      times.set(pid, processCpuMs(pid));
    } catch {
      // Gone since it was listed.
    }
  }
  return times;
}

/** Lists the pids of the Postgres backends to count (those connected to the bench database). */
export type PidLister = () => Promise<number[]>;

async function withCpu(serverPid: number, generator: Generator, postgresPids: PidLister | undefined, run: () => Promise<RunFigures>): Promise<LoadRun> {
  const pgBefore = postgresPids ? cpuOfPids(await postgresPids()) : null;
  const machine = machineBusyMs();
  const server = processCpuMs(serverPid);
  const self = selfCpuMs();
  const started = performance.now();
  const figures = await run();
  const wall = performance.now() - started;
  const serverMs = processCpuMs(serverPid) - server;
  const selfMs = selfCpuMs() - self;
  const machineMs = machineBusyMs() - machine;
  let postgresMs: number | null = null;
  if (pgBefore && postgresPids) {
    // A backend opened during the run counts from zero; one closed during it is lost (the pool keeps them 30 s).
    postgresMs = 0;
    for (const [pid, ms] of cpuOfPids(await postgresPids())) postgresMs += ms - (pgBefore.get(pid) ?? 0);
  }
  const pct = (ms: number) => Math.round((ms / wall) * 100);
  return {
    ...figures,
    generator,
    serverCpuPct: pct(serverMs),
    loadGeneratorCpuPct: pct(selfMs),
    postgresCpuPct: postgresMs === null ? null : pct(postgresMs),
    machineCpuPct: pct(machineMs),
    otherCpuPct: Math.max(0, pct(machineMs - serverMs - selfMs - (postgresMs ?? 0))),
  };
}

/**
 * `connections` lanes, each sending `request` on its own keep-alive socket one after another until
 * `durationS` is over; bodies are counted and dropped unread. Figures in the shape of an autocannon run
 * (autocannon's own whole-millisecond percentiles are NaN, written as null).
 */
export async function runPool(port: number, request: BenchRequest, connections: number, durationS: number): Promise<RunFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const times = new ResponseTimes();
  const statusCounts: Record<string, number> = {};
  const expected = request.expectedStatus ?? request.intendedStatus;
  let bytes = 0;
  let unexpected = 0;
  let errors = 0;
  let timeouts = 0;
  const sendOne = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const req = http.request({ host: '127.0.0.1', port, method: request.method, path: request.path, headers: request.headers, agent }, (res) => {
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => {
          times.add(performance.now() - started);
          const status = res.statusCode ?? 0;
          statusCounts[status] = (statusCounts[status] ?? 0) + 1;
          if (status !== expected) unexpected++;
          resolve();
        });
        res.on('error', () => {
          errors++;
          resolve();
        });
      });
      req.setTimeout(30_000, () => {
        timeouts++;
        req.destroy(new Error('timeout'));
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(request.body);
    });

  const started = performance.now();
  const deadline = started + durationS * 1000;
  try {
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const errorsBefore = errors;
          await sendOne();
          // A refused connection fails at once: do not spin.
          if (errors > errorsBefore) await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const elapsedS = (performance.now() - started) / 1000;
  const latency = times.summary();
  const completed = Object.values(statusCounts).reduce((sum, n) => sum + n, 0);
  return {
    reqPerSec: Math.round(completed / elapsedS),
    p50Ms: latency.p50,
    p99Ms: latency.p99,
    meanMs: latency.mean,
    maxMs: latency.max,
    autocannonP50Ms: NaN,
    autocannonP99Ms: NaN,
    completed,
    bytes,
    durationS: Math.round(elapsedS * 100) / 100,
    statusCounts,
    non2xx: Object.entries(statusCounts).reduce((sum, [status, n]) => (status.startsWith('2') ? sum : sum + n), 0),
    unexpected,
    errors,
    timeouts,
  };
}

export interface ScenarioTarget {
  name: string;
  port: number;
  /** The server's pid, for its CPU time. */
  serverPid: number;
  /** The Postgres backends serving it, for their CPU time. */
  postgresPids?: PidLister;
  requests: BenchRequest[];
  generator: Generator;
}

function runWith(target: ScenarioTarget, connections: number, durationS: number): Promise<LoadRun> {
  return withCpu(target.serverPid, target.generator, target.postgresPids, () =>
    target.generator === 'autocannon'
      ? runOnce({ name: target.name, port: target.port, requests: target.requests }, connections, durationS)
      : runPool(target.port, target.requests[0]!, connections, durationS),
  );
}

/** Only the first run of a server just started: nothing cached yet. */
export function runCold(target: ScenarioTarget, load: LoadSettings): Promise<LoadRun> {
  return runWith(target, load.connections, load.durationS);
}

/** A warm-up, then `runs` runs; the median by req/s is reported with its own latencies. */
export async function measureScenario(
  target: ScenarioTarget,
  load: LoadSettings,
  onRun?: (target: string, run: number, figures: LoadRun) => void,
  cold?: LoadRun,
): Promise<RegistryScenario> {
  await runWith(target, load.connections, load.warmupS);
  const runs: LoadRun[] = [];
  for (let run = 1; run <= load.runs; run++) {
    const figures = await runWith(target, load.connections, load.durationS);
    runs.push(figures);
    onRun?.(target.name, run, figures);
  }
  return { generator: target.generator, requestCount: target.requests.length, cold, median: medianRun(runs) as LoadRun, runs };
}
