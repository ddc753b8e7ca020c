/**
 * The "noisy neighbour" scenario (issue 10 item 3): the latency of single resolutions from one client while
 * another client floods the resolver with heavy requests. The flood comes from noisy-flooder.ts in a process
 * of its own, from 127.0.0.2; the single resolutions are sent from 127.0.0.1 by this process, one at a time,
 * a few milliseconds apart, for as long as the flood lasts. Loopback only, bounded in time and count.
 * Used by run.ts and by test/integration/resolver-fairness.test.ts.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { percentile } from './batch-latency.js';
import type { FloodOutcome, FloodPlan } from './noisy-flooder.js';

export const FLOODING_ADDRESS = '127.0.0.2';
export const PROBING_ADDRESS = '127.0.0.1';
// The flood ends at its duration or after this many requests, whichever comes first.
const MAX_FLOOD_REQUESTS = 200_000;

export interface NoisyNeighbourOptions {
  projectRoot: string;
  port: number;
  /** Paths of single resolutions (GET), sent in turn. */
  probePaths: readonly string[];
  /** A POST /resolve/batch body (1,000 identifiers). */
  batchBody: string;
  /** A POST /reverse/bySimilarity body with a long URL. */
  similarityBody: string;
  durationMs: number;
  batchConnections?: number;
  similarityConnections?: number;
  /** Pause between two single resolutions (default 10 ms). */
  probeGapMs?: number;
  /** Pause of a flooding connection after a 429 (default 50 ms, a twentieth of what Retry-After asks). */
  backoffMs?: number;
  /** The flood goes on past durationMs, up to this many ms, until each kind of heavy request had a 200 (FloodPlan). */
  untilEveryLaneServedMs?: number;
}

export interface NoisyNeighbourFigures {
  settings: {
    durationMs: number;
    batchConnections: number;
    similarityConnections: number;
    batchBodyBytes: number;
    similarityBodyBytes: number;
    probeGapMs: number;
    backoffMs: number;
  };
  /** The single resolutions of the other client. */
  probe: { requests: number; p50Ms: number; p99Ms: number; maxMs: number; statuses: Record<string, number> };
  flood: FloodOutcome;
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;

function get(port: number, agent: http.Agent, requestPath: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request({ host: '127.0.0.1', port, method: 'GET', path: requestPath, headers: { Accept: 'application/json' }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`GET ${requestPath}: no answer within 60 s`)));
    req.on('error', reject);
    req.end();
  });
}

function startFlood(projectRoot: string, plan: FloodPlan): Promise<FloodOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'dist/bench/resolver/noisy-flooder.js')], {
      cwd: projectRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as FloodOutcome);
      else reject(new Error(`the noisy flooder exited with code ${code}: ${stderr.slice(0, 2000)}`));
    });
    child.stdin.end(JSON.stringify(plan));
  });
}

export async function measureNoisyNeighbour(options: NoisyNeighbourOptions): Promise<NoisyNeighbourFigures> {
  const settings = {
    durationMs: options.durationMs,
    batchConnections: options.batchConnections ?? 50,
    similarityConnections: options.similarityConnections ?? 100,
    batchBodyBytes: Buffer.byteLength(options.batchBody),
    similarityBodyBytes: Buffer.byteLength(options.similarityBody),
    probeGapMs: options.probeGapMs ?? 10,
    backoffMs: options.backoffMs ?? 50,
  };
  const agent = new http.Agent({ keepAlive: true, localAddress: PROBING_ADDRESS, maxSockets: 1 });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  try {
    // One answer before the flood: the connection is open and the path warm.
    await get(options.port, agent, options.probePaths[0]!);
    const started = performance.now();
    const flooding = startFlood(options.projectRoot, {
      port: options.port,
      localAddress: FLOODING_ADDRESS,
      durationMs: options.durationMs,
      maxRequests: MAX_FLOOD_REQUESTS,
      backoffMs: settings.backoffMs,
      untilEveryLaneServedMs: options.untilEveryLaneServedMs,
      lanes: [
        { path: '/resolve/batch', body: options.batchBody, connections: settings.batchConnections },
        { path: '/reverse/bySimilarity', body: options.similarityBody, connections: settings.similarityConnections },
      ],
    });
    let floodOver = false;
    const flood = flooding.finally(() => (floodOver = true));
    // The flooder takes a moment to start and open its connections.
    const probeFrom = started + Math.min(500, options.durationMs / 5);
    const probeUntil = started + options.durationMs - 200;
    while (performance.now() < probeFrom && !floodOver) await new Promise((resolve) => setTimeout(resolve, 20));
    while (performance.now() < probeUntil && !floodOver) {
      const answer = await get(options.port, agent, options.probePaths[latencies.length % options.probePaths.length]!);
      latencies.push(answer.ms);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      await new Promise((resolve) => setTimeout(resolve, settings.probeGapMs));
    }
    const outcome = await flood;
    if (latencies.length === 0) throw new Error('the noisy neighbour scenario measured no single resolution');
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      settings,
      probe: {
        requests: sorted.length,
        p50Ms: round2(percentile(sorted, 50)),
        p99Ms: round2(percentile(sorted, 99)),
        maxMs: round2(sorted[sorted.length - 1]!),
        statuses,
      },
      flood: outcome,
    };
  } finally {
    agent.destroy();
  }
}

/**
 * The costliest similarity lookup under the URL cap: a URL of about `length` characters (at most 2,048)
 * and an accession the URL does not contain, so that every provider's filled URL is far from it.
 */
export function longSimilarityBody(length = 2000): string {
  const head = 'https://www.ebi.ac.uk/';
  const url = head + 'abcdefghij/'.repeat(Math.floor((length - head.length - 1) / 11)) + 'x';
  return JSON.stringify({ apiVersion: '1.0', payload: { url, accession: 'Q9'.repeat(500) } });
}
