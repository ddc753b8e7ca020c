import type { Middleware } from 'koa';
import { isDatabaseUnavailable } from '../db/connection-errors.js';
import type { Logger } from '../lib/logger.js';
import { errorEnvelope } from './envelope.js';
import { HttpError } from './http-error.js';

interface KoaLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  message?: string;
}

// Messages for errors raised by libraries (raw-body, koa) whose own wording is terse or absent.
function messageForLibraryError(status: number, error: KoaLikeError, path: string): string {
  if (error.type === 'entity.too.large') return 'Request body is too large';
  if (error.type === 'request.aborted') return 'Request body was not completely received';
  if (status === 405) return `Method not allowed on ${path}`;
  return error.message || `Request failed with status ${status}`;
}

/** Postgres down: a retryable 503 naming the database (never its address or credentials), not a 500. */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The registry database is unavailable; retry in a few seconds';
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * The one place that turns a thrown error into an answer: the envelope with the right status for every
 * error a client caused; 503 with Retry-After while the database cannot be reached; a generic 500 (logged
 * with the request id) for everything else, so that no internal detail leaks. Unknown routes get a 404 in
 * the same envelope.
 */
export function errorTranslator(logger: Logger): Middleware {
  return async function translateErrors(ctx, next) {
    try {
      await next();
      // Routers leave 404 (no route) without a body; their 405s become errors in unserved-methods.ts.
      if ((ctx.body === undefined || ctx.body === null) && ctx.status === 404) {
        ctx.status = 404;
        ctx.body = errorEnvelope(`No such endpoint: ${ctx.method} ${ctx.path}`);
      }
    } catch (caught) {
      const error = caught as KoaLikeError & Error;
      ctx.set('Cache-Control', 'no-store');
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.set(error.headers);
        ctx.body = errorEnvelope(error.message);
        return;
      }
      const status = error.status ?? error.statusCode;
      if (status && status >= 400 && status < 500) {
        ctx.status = status;
        ctx.body = errorEnvelope(messageForLibraryError(status, error, ctx.path));
        return;
      }
      if (isDatabaseUnavailable(error)) {
        // One line per failed request during an outage, at warn: the outage is not the request's fault.
        logger.warn({ requestId: ctx.state.requestId, method: ctx.method, url: ctx.url, reason: error.message }, 'database unavailable');
        ctx.status = 503;
        ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
        ctx.body = errorEnvelope(DATABASE_UNAVAILABLE_MESSAGE);
        return;
      }
      logger.error({ err: error, requestId: ctx.state.requestId, method: ctx.method, url: ctx.url }, 'request failed');
      ctx.status = status && status >= 500 && status < 600 ? status : 500;
      ctx.body = errorEnvelope(`Internal server error (request id ${String(ctx.state.requestId)})`);
    }
  };
}
