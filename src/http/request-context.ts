import type { Middleware } from 'koa';
import type { Logger } from '../lib/logger.js';

const SAFE_REQUEST_ID = /^[\w.:-]{1,100}$/;
let counter = 0;
const processTag = `${process.pid.toString(36)}-${Date.now().toString(36)}`;

/** The caller's X-Request-Id when it is sane, else a new one from a per-process counter. */
export function requestIdFor(given: string | undefined): string {
  return given && SAFE_REQUEST_ID.test(given) ? given : `${processTag}-${(++counter).toString(36)}`;
}

/**
 * Gives each request an id (the caller's X-Request-Id when it is sane) and writes one access line at
 * debug level, or for a sample of requests at info. A line per request at info costs about 13 % of
 * resolution throughput, and a random UUID or hash per request a further few percent, hence a counter.
 */
export function requestContext(logger: Logger, sampleRate: number): Middleware {
  const debug = logger.isLevelEnabled('debug');
  const info = logger.isLevelEnabled('info');
  return async function trackRequest(ctx, next) {
    const given = ctx.get('X-Request-Id');
    const requestId = requestIdFor(given);
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const logThis = debug || (info && sampleRate > 0 && Math.random() < sampleRate);
    if (!logThis) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const line = {
        requestId,
        method: ctx.method,
        url: ctx.url,
        status: ctx.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
      };
      if (debug) logger.debug(line, 'request');
      else logger.info({ ...line, sampled: sampleRate }, 'request');
    }
  };
}
