import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Router } from '@koa/router';
import Koa from 'koa';
import type { Logger } from '../lib/logger.js';
import { setClientAddress, type ClientAddress } from './client-address.js';
import { openCors, PUBLIC_CORS, type TrustedCors } from './cors.js';
import { errorTranslator, type ErrorPageRenderer } from './error-translator.js';
import { healthEndpoints, healthMethodsAt, type DependencyCheck, type ReadinessPolicy } from './health.js';
import { guardRequestPath } from './input-guard.js';
import { measureRequests, metricsEndpoint, type AreaMetrics } from './metrics-middleware.js';
import { METRICS_PATH } from '../metrics/scrape.js';
import { noSniff } from './no-sniff.js';
import { requestContext } from './request-context.js';
import { closeAfterUnreadBody } from './unread-body.js';
import { answerUnservedMethods, HEAD_AND_GET, type ServedMethods } from './unserved-methods.js';

export interface BaseAppOptions {
  logger: Logger;
  logSampleRate: number;
  checks: DependencyCheck[];
  readinessPolicy?: ReadinessPolicy;
  /** Methods open to any origin; both areas are public read APIs without cookies. */
  corsMethods?: string[];
  /** The curators' pages on other origins, which may also send writes with Authorization (cors.ts). */
  trustedCors?: TrustedCors;
  /**
   * Answers the area's hot path on the bare Node request, ahead of Koa (the resolver's GET /{compactId});
   * returns false for anything it leaves to the application.
   */
  front?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The methods of the area's paths that no router declares (those the front handler answers, say). */
  servedMethods?: ServedMethods;
  /** The area's HTML error pages for browsers (see ErrorPageRenderer); the envelope for everyone without. */
  errorPage?: ErrorPageRenderer;
  /** Who the client is (TRUST_PROXY, client-address.ts), as ctx.ip; Koa's own reading of the peer without. */
  clientAddress?: ClientAddress;
  /** Request counts and latencies, and /metrics unless it has a port of its own. */
  metrics?: AreaMetrics;
}

/** A Koa application whose request handler first offers each request to a front handler. */
export class FrontedKoa extends Koa {
  /** Public for the tests that check which requests it keeps and which it hands to Koa. */
  constructor(readonly front: (req: IncomingMessage, res: ServerResponse) => boolean) {
    super();
  }

  override callback(): ReturnType<Koa['callback']> {
    const handle = super.callback();
    const front = this.front;
    // Both areas listen with node:http only, so requests are always IncomingMessage/ServerResponse.
    return (req, res) => (front(req as IncomingMessage, res as ServerResponse) ? Promise.resolve() : handle(req, res));
  }
}

/**
 * What both areas share: request metrics, nosniff, request ids, the error envelope, 405 with Allow, CORS,
 * the health endpoints, /metrics and the input guard on every path (input-guard.ts).
 */
export function createBaseApp(options: BaseAppOptions): Koa {
  const app = options.front ? new FrontedKoa(options.front) : new Koa();
  // Errors are logged once, by the error translator, with the request id; Koa's own printing is off.
  app.silent = true;
  if (options.clientAddress) app.use(setClientAddress(options.clientAddress));
  const metrics = options.metrics;
  if (metrics) app.use(measureRequests(metrics.meter, metrics.familyOf));
  app.use(noSniff());
  app.use(requestContext(options.logger, options.logSampleRate));
  app.use(closeAfterUnreadBody());
  app.use(errorTranslator(options.logger, options.errorPage));
  const areaMethodsAt = options.servedMethods;
  const metricsHere = metrics?.onAreaPort === true;
  const sharedMethodsAt = (path: string) => healthMethodsAt(path) ?? (metricsHere && path === METRICS_PATH ? HEAD_AND_GET : undefined);
  app.use(answerUnservedMethods((path) => sharedMethodsAt(path) ?? areaMethodsAt?.(path)));
  app.use(openCors({ ...PUBLIC_CORS, methods: options.corsMethods ?? ['GET', 'HEAD', 'OPTIONS'], trusted: options.trustedCors }));
  app.use(healthEndpoints(options.checks, options.readinessPolicy));
  if (metrics?.onAreaPort) app.use(metricsEndpoint(metrics.registry, metrics.token));
  app.use(guardRequestPath());
  return app;
}

/**
 * Mounts routers in order, each followed by its allowedMethods(), which answers a known path asked with a
 * method it does not serve.
 */
export function useRouters(app: Koa, routers: readonly Router[]): void {
  for (const router of routers) app.use(router.routes()).use(router.allowedMethods());
}
