/**
 * The noisy neighbour of the resolver benchmark (and of test/integration/resolver-fairness.test.ts): one
 * client, from a loopback address of its own, sending heavy requests (1,000-item batches, long similarity
 * lookups) on many connections at once, each connection sending its next request as soon as it has an
 * answer (after a short pause when refused), for a bounded time and a bounded number of requests. It runs
 * in a process of its own, so that its own work never delays the measuring client.
 *
 * Reads its plan (FloodPlan) as JSON on stdin; writes what it got (FloodOutcome) as JSON on stdout. Started
 * by noisy-neighbour.ts as `node dist/bench/resolver/noisy-flooder.js`.
 */
import http from 'node:http';

export interface FloodLane {
  path: string;
  /** The JSON body, sent with every request of the lane. */
  body: string;
  connections: number;
}

export interface FloodPlan {
  port: number;
  /** The flooding client's address (Linux routes all of 127/8 to loopback: 127.0.0.2 is another client). */
  localAddress: string;
  durationMs: number;
  /** Requests of the whole flood, at most. */
  maxRequests: number;
  /** Pause of a connection after a 429: an abusive client comes straight back, whatever Retry-After says. */
  backoffMs: number;
  lanes: FloodLane[];
  /**
   * When set, the flood goes on past durationMs, up to this many ms in all, until every lane has had an
   * answer 200: on a slow or busy machine the first admitted requests can take the whole duration, and a test
   * asking whether each kind of heavy request is served waits for it rather than for a time.
   */
  untilEveryLaneServedMs?: number;
}

export interface FloodOutcome {
  requests: number;
  /** Answers by `<path> <status>`. */
  statuses: Record<string, number>;
  errors: number;
  /** Bytes of answer bodies received. */
  bytes: number;
  durationMs: number;
}

function post(port: number, agent: http.Agent, path: string, body: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) };
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path, headers, agent }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`POST ${path}: no answer within 60 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

async function flood(plan: FloodPlan): Promise<FloodOutcome> {
  const connections = plan.lanes.reduce((sum, lane) => sum + lane.connections, 0);
  const agent = new http.Agent({ keepAlive: true, localAddress: plan.localAddress, maxSockets: connections });
  const outcome: FloodOutcome = { requests: 0, statuses: {}, errors: 0, bytes: 0, durationMs: 0 };
  const started = performance.now();
  const ends = started + plan.durationMs;
  const lastEnd = started + Math.max(plan.durationMs, plan.untilEveryLaneServedMs ?? 0);
  const served = new Set<string>();
  const goesOn = () => {
    const now = performance.now();
    return now < ends || (now < lastEnd && served.size < plan.lanes.length);
  };
  const connection = async (lane: FloodLane) => {
    while (goesOn() && outcome.requests < plan.maxRequests) {
      outcome.requests++;
      try {
        const answer = await post(plan.port, agent, lane.path, lane.body);
        const key = `${lane.path} ${answer.status}`;
        outcome.statuses[key] = (outcome.statuses[key] ?? 0) + 1;
        outcome.bytes += answer.bytes;
        if (answer.status === 200) served.add(lane.path);
        if (answer.status === 429) await new Promise((resolve) => setTimeout(resolve, plan.backoffMs));
      } catch {
        outcome.errors++;
        await new Promise((resolve) => setTimeout(resolve, plan.backoffMs));
      }
    }
  };
  try {
    await Promise.all(plan.lanes.flatMap((lane) => Array.from({ length: lane.connections }, () => connection(lane))));
  } finally {
    agent.destroy();
  }
  outcome.durationMs = Math.round(performance.now() - started);
  return outcome;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// A script: other modules import its types only (import type, erased), never its code.
readStdin()
  .then((text) => flood(JSON.parse(text) as FloodPlan))
  .then(
    (outcome) => {
      process.stdout.write(`${JSON.stringify(outcome)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`noisy flooder failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
