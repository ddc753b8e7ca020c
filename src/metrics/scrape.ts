import type { Registry } from 'prom-client';
import { carriesBearerToken } from '../http/bearer-token.js';
import { RenderedMetrics } from './rendered-metrics.js';

/** Where a process's metrics are read. */
export const METRICS_PATH = '/metrics';

/** What /metrics answers, wherever it is served (an area's port, or a metrics port of its own). */
export interface ScrapeAnswer {
  status: 200 | 401;
  headers: Record<string, string>;
  body: string;
}

export const METRICS_CHALLENGE = 'Bearer realm="metrics"';

/** One rendered copy per registry, however many listeners serve it. */
const rendered = new WeakMap<Registry, RenderedMetrics>();

function renderedMetricsOf(registry: Registry): RenderedMetrics {
  let metrics = rendered.get(registry);
  if (!metrics) {
    metrics = new RenderedMetrics(registry);
    rendered.set(registry, metrics);
  }
  return metrics;
}

/**
 * The registry in the Prometheus text format, or 401 when METRICS_TOKEN is set and the request does not carry
 * it as `Authorization: Bearer <token>` (compared in constant time). The text is at most a second old
 * (rendered-metrics.ts); Cache-Control still says no-store, so that no proxy keeps it longer.
 */
export async function scrapeMetrics(registry: Registry, token: string, authorization: string | undefined): Promise<ScrapeAnswer> {
  if (token !== '' && !carriesBearerToken(authorization, token)) {
    return { status: 401, headers: { 'WWW-Authenticate': METRICS_CHALLENGE, 'Cache-Control': 'no-store' }, body: '' };
  }
  return { status: 200, headers: { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }, body: await renderedMetricsOf(registry).text() };
}
