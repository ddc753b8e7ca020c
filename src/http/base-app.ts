import Koa from 'koa';
import type { Logger } from '../lib/logger.js';
import { openCors } from './cors.js';
import { errorTranslator } from './error-translator.js';
import { healthEndpoints, type DependencyCheck, type ReadinessPolicy } from './health.js';
import { requestContext } from './request-context.js';

export interface BaseAppOptions {
  logger: Logger;
  logSampleRate: number;
  checks: DependencyCheck[];
  readinessPolicy?: ReadinessPolicy;
  /** Methods open to any origin; both areas are public read APIs without cookies. */
  corsMethods?: string[];
  /**
   * Handles the area's hot path ahead of CORS and routing (the resolver's GET /{compactId}); it sets its
   * own CORS header and calls next() for anything else.
   */
  fastPath?: Koa.Middleware;
}

/** What both areas share: request ids, the error envelope, CORS and the health endpoints. */
export function createBaseApp(options: BaseAppOptions): Koa {
  const app = new Koa();
  // Errors are logged once, by the error translator, with the request id; Koa's own printing is off.
  app.silent = true;
  app.use(requestContext(options.logger, options.logSampleRate));
  app.use(errorTranslator(options.logger));
  if (options.fastPath) app.use(options.fastPath);
  app.use(
    openCors({
      methods: options.corsMethods ?? ['GET', 'HEAD', 'OPTIONS'],
      allowHeaders: ['Content-Type', 'Accept', 'X-Request-Id', 'If-None-Match', 'If-Modified-Since', 'Idempotency-Key', 'Authorization'],
      exposeHeaders: ['X-Request-Id', 'ETag', 'Last-Modified', 'Retry-After', 'Location'],
      maxAgeSeconds: 86400,
    }),
  );
  app.use(healthEndpoints(options.checks, options.readinessPolicy));
  return app;
}
