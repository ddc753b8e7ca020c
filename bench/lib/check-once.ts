import http from 'node:http';
import { mapLimited, sendRequest } from './http-client.js';
import type { BenchRequest } from './workload.js';

/** [request path, HTTP status, parsed JSON body] as fetched once from the server under test. */
export type CheckedAnswer = [path: string, status: number, body: unknown];

export interface KindCheck {
  count: number;
  /** Answers other than the kind's intended status (e.g. a sample id its own pattern refuses). */
  offIntent: number;
  statuses: Record<string, number>;
}

export interface CheckSummary {
  total: number;
  offIntent: number;
  byKind: Record<string, KindCheck>;
}

/**
 * Sends every request once, before any load, and records the status it got as the request's expected
 * status (and its ETag, if any): under load, any other answer counts as unexpected. With `keepBodies` the parsed JSON answers are
 * returned too (the ceiling serves them).
 */
export async function checkOnce(
  port: number,
  requests: BenchRequest[],
  options: { keepBodies?: boolean } = {},
): Promise<{ summary: CheckSummary; answers: CheckedAnswer[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const answers: CheckedAnswer[] = [];
  const summary: CheckSummary = { total: requests.length, offIntent: 0, byKind: {} };
  try {
    await mapLimited(requests, 8, async (request) => {
      const answer = await sendRequest(port, request, agent);
      request.expectedStatus = answer.status;
      const etag = answer.headers.etag;
      if (etag) request.etag = etag;
      const kind = (summary.byKind[request.kind] ??= { count: 0, offIntent: 0, statuses: {} });
      kind.count++;
      kind.statuses[answer.status] = (kind.statuses[answer.status] ?? 0) + 1;
      if (answer.status !== request.intendedStatus) {
        kind.offIntent++;
        summary.offIntent++;
      }
      if (answer.status >= 500) throw new Error(`${request.method} ${request.path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
      if (options.keepBodies) answers.push([request.path, answer.status, JSON.parse(answer.body) as unknown]);
    });
  } finally {
    agent.destroy();
  }
  return { summary, answers };
}

/** One line per kind: `hit 856 (200×850, 400×6)`. */
export function describeCheck(summary: CheckSummary): string {
  return Object.entries(summary.byKind)
    .map(([kind, k]) => `${kind} ${k.count} (${Object.entries(k.statuses).map(([s, n]) => `${s}×${n}`).join(', ')})`)
    .join('; ');
}
