/**
 * The attack on one route, from an address of the route's own. First each case alone, one after the other,
 * with the area's event-loop delay read around each: what one such request costs, undisturbed. Then the
 * flood: a few connections send the cases in turn, each connection its next request as soon as it has an
 * answer (a refusal included: an abusive client does not wait), for the window and on until every case was
 * sent at least once; what the answers were and the slowest of them (to its last byte) are recorded.
 */
import http from 'node:http';
import type { AttackCase } from './case-derivation.js';

export interface SoloCase {
  label: string;
  /** The answer's status, `timeout`, or `no answer (<error code>)`. */
  answer: string;
  ms: number;
  /** The area's event-loop delay while the case was under way (LoopReading). */
  loopMs: number;
  loopBusyMs: number;
}

export interface AttackOptions {
  port: number;
  cases: readonly AttackCase[];
  connections: number;
  windowMs: number;
  /** The attacking client's address (127/8 is all loopback on Linux: each route gets another client). */
  localAddress: string;
  /** An answer slower than this is given up (counted as a timeout). */
  timeoutMs: number;
  /** No new request after this long, even if some case was not sent yet. */
  maxMs: number;
}

export interface AttackFigures {
  requests: number;
  durationMs: number;
  slowestMs: number;
  slowestCase: string | null;
  statuses: Record<string, number>;
  /** Requests without an answer: the connection closed or failed (e.g. a 16 MiB body cut short), by error code. */
  failures: Record<string, number>;
  timeouts: number;
  /** Cases never sent (the window's hard end came first). */
  unsent: number;
}

interface Outcome {
  ms: number;
  status?: number;
  failure?: string;
  timedOut?: boolean;
}

function send(options: Pick<AttackOptions, 'port' | 'timeoutMs'>, agent: http.Agent, attack: AttackCase): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    let status: number | undefined;
    let settled = false;
    const finish = (outcome: Omit<Outcome, 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, ms: performance.now() - started });
    };
    const timer = setTimeout(() => {
      finish({ timedOut: true });
      request?.destroy();
    }, options.timeoutMs);
    let request: http.ClientRequest | undefined;
    try {
      const body = attack.body?.();
      const headers: Record<string, string | number> = { ...attack.headers };
      if (body) headers['Content-Length'] = body.length;
      request = http.request({ host: '127.0.0.1', port: options.port, method: attack.method, path: attack.path, headers, agent }, (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => finish({ status }));
        res.on('error', () => finish({ status }));
        res.on('close', () => finish({ status }));
      });
      // A server that answers before reading the whole body (413, 401) may close while we still write it: the
      // answer counts, the write error does not.
      request.on('error', (error: NodeJS.ErrnoException) => finish(status === undefined ? { failure: error.code ?? error.message } : { status }));
      request.end(body);
    } catch (error) {
      finish({ failure: (error as NodeJS.ErrnoException).code ?? (error as Error).message });
    }
  });
}

const answerOf = (outcome: Outcome): string =>
  outcome.timedOut ? 'timeout' : outcome.failure !== undefined ? `no answer (${outcome.failure})` : String(outcome.status);

/** Each case alone, in turn: its answer time and the event-loop delay around it (`readLoop` reads and restarts it). */
export async function sendEachAlone(
  options: Omit<AttackOptions, 'connections' | 'windowMs' | 'maxMs'>,
  readLoop: () => Promise<{ maxMs: number; busyMaxMs: number }>,
): Promise<SoloCase[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1, localAddress: options.localAddress });
  const solo: SoloCase[] = [];
  try {
    for (const attack of options.cases) {
      await readLoop();
      const outcome = await send(options, agent, attack);
      const loop = await readLoop();
      solo.push({ label: attack.label, answer: answerOf(outcome), ms: Math.round(outcome.ms), loopMs: loop.maxMs, loopBusyMs: loop.busyMaxMs });
    }
  } finally {
    agent.destroy();
  }
  return solo;
}

export async function attackRoute(options: AttackOptions): Promise<AttackFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections, localAddress: options.localAddress });
  const figures: AttackFigures = { requests: 0, durationMs: 0, slowestMs: 0, slowestCase: null, statuses: {}, failures: {}, timeouts: 0, unsent: 0 };
  const started = performance.now();
  const windowEnds = started + options.windowMs;
  const hardEnd = started + options.maxMs;
  let next = 0;
  const lane = async () => {
    for (;;) {
      const now = performance.now();
      if (now >= hardEnd || (now >= windowEnds && next >= options.cases.length)) return;
      const attack = options.cases[next++ % options.cases.length]!;
      const outcome = await send(options, agent, attack);
      figures.requests++;
      if (outcome.timedOut) figures.timeouts++;
      else if (outcome.failure !== undefined) figures.failures[outcome.failure] = (figures.failures[outcome.failure] ?? 0) + 1;
      else figures.statuses[String(outcome.status)] = (figures.statuses[String(outcome.status)] ?? 0) + 1;
      if (outcome.ms > figures.slowestMs) {
        figures.slowestMs = outcome.ms;
        figures.slowestCase = attack.label;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, lane));
  } finally {
    agent.destroy();
  }
  figures.durationMs = Math.round(performance.now() - started);
  figures.slowestMs = Math.round(figures.slowestMs);
  figures.unsent = Math.max(0, options.cases.length - next);
  return figures;
}
