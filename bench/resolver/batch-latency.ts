import http from 'node:http';
import { sendRequest } from '../lib/http-client.js';

export interface BatchFigures {
  items: number;
  requests: number;
  medianMs: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
  /** Items per answer status, over all measured requests. */
  itemStatuses: Record<string, number>;
}

/** Nearest-rank percentile of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

const round2 = (ms: number) => Math.round(ms * 100) / 100;

/**
 * The latency of one POST /resolve/batch of `items` identifiers, sent one after another on one keep-alive
 * connection (nothing else in flight): a few warm-up requests, then `bodies.length` measured ones.
 */
export async function measureBatchLatency(port: number, bodies: string[], items: number, warmup = 3): Promise<BatchFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const itemStatuses: Record<string, number> = {};
  const send = (body: string) =>
    sendRequest(port, { method: 'POST', path: '/resolve/batch', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body }, agent);
  try {
    for (let i = 0; i < warmup; i++) await send(bodies[i % bodies.length]!);
    for (const body of bodies) {
      const started = performance.now();
      const answer = await send(body);
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`POST /resolve/batch answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      const results = (JSON.parse(answer.body) as { payload: { results: { status: number }[] } }).payload.results;
      if (results.length !== items) throw new Error(`POST /resolve/batch answered ${results.length} results for ${items} items`);
      for (const r of results) itemStatuses[r.status] = (itemStatuses[r.status] ?? 0) + 1;
    }
  } finally {
    agent.destroy();
  }
  const sorted = [...times].sort((a, b) => a - b);
  return {
    items,
    requests: sorted.length,
    medianMs: round2(percentile(sorted, 50)),
    p99Ms: round2(percentile(sorted, 99)),
    minMs: round2(sorted[0]!),
    maxMs: round2(sorted[sorted.length - 1]!),
    itemStatuses,
  };
}
