import type { Middleware } from 'koa';
import type { Registry } from 'prom-client';
import type { HttpMeter } from '../metrics/http-meter.js';
import { METRICS_PATH, scrapeMetrics } from '../metrics/scrape.js';
import { HttpError } from './http-error.js';
import type { FamilyOfRequest } from './rate-limit-middleware.js';

/** An area's metrics: its process's registry, its request meter and how /metrics is reached. */
export interface AreaMetrics {
  registry: Registry;
  /** Counts the requests the Koa application answers (the resolver's front handler counts its own). */
  meter: HttpMeter;
  /** The meter's family of a request (the rate limits' families, plus health and metrics). */
  familyOf: (method: string, path: string) => string;
  /** METRICS_TOKEN; empty: no token asked. */
  token: string;
  /** Whether /metrics is answered on the area's own port (false: on a metrics port of its own, metrics-server.ts). */
  onAreaPort: boolean;
}

/** The rate limits' family of a request, or, for the paths never limited, `metrics` or `health`. */
export function meteredFamilyOf(familyOf: FamilyOfRequest): AreaMetrics['familyOf'] {
  return (method, path) => familyOf(method, path) ?? (path === METRICS_PATH ? 'metrics' : 'health');
}

/**
 * Counts each request the application answers, with the status the error translator settled on (so this
 * sits outside it). Not on the resolver's hot path: the front handler answers resolutions ahead of Koa.
 */
export function measureRequests(meter: HttpMeter, familyOf: AreaMetrics['familyOf']): Middleware {
  return async function measure(ctx, next) {
    const family = meter.familyIndex(familyOf(ctx.method, ctx.path));
    const started = performance.now();
    try {
      await next();
    } catch (error) {
      meter.record(family, 500, started);
      throw error;
    }
    meter.record(family, ctx.status, started);
  };
}

/** GET and HEAD /metrics: the registry in the Prometheus text format; 401 in the envelope without the token. */
export function metricsEndpoint(registry: Registry, token: string): Middleware {
  return async function metrics(ctx, next) {
    if (ctx.path !== METRICS_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const answer = await scrapeMetrics(registry, token, ctx.get('Authorization') || undefined);
    if (answer.status === 401) throw new HttpError(401, 'The metrics need Authorization: Bearer <METRICS_TOKEN>', answer.headers);
    ctx.set(answer.headers);
    ctx.body = answer.body;
  };
}
