import type { Context, Middleware } from 'koa';
import { DomainError, type DomainErrorKind, type QuotaState } from '../core/domain-error.js';
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

/** How an error is answered: the status, its headers, and the envelope's errorMessage and payload. */
export interface ErrorAnswer {
  status: number;
  headers: Readonly<Record<string, string>>;
  message: string;
  payload: unknown;
}

/** The request an error ended, as the log lines and the 500 message name it. */
export interface FailedRequest {
  requestId: string;
  method: string;
  url: string;
  path: string;
}

const STATUS_OF_KIND: Readonly<Record<DomainErrorKind, number>> = {
  invalid: 400,
  'not-found': 404,
  conflict: 409,
  busy: 429,
  unavailable: 503,
  'rate-limited': 429,
  unauthenticated: 401,
  forbidden: 403,
  gone: 410,
  unprocessable: 422,
};

/** The status a domain error is answered with (the desk's pages show a refusal with it too). */
export function statusOfDomainError(error: DomainError): number {
  return STATUS_OF_KIND[error.kind];
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A quota as the RateLimit header fields of draft-ietf-httpapi-ratelimit-headers-10 tell it (structured
 * fields: `RateLimit-Policy: "browse";q=1200;w=60`, `RateLimit: "browse";r=0;t=42`), with Retry-After.
 */
export function quotaHeaders(quota: QuotaState): Record<string, string> {
  return {
    'Retry-After': String(quota.resetSeconds),
    'RateLimit-Policy': ratelimitPolicyField(quota.policy, quota.limit, quota.windowSeconds),
    RateLimit: ratelimitField(quota.policy, quota.remaining, quota.resetSeconds),
  };
}

/** The RateLimit-Policy field of one policy (a quota of `limit` units per `windowSeconds`). */
export const ratelimitPolicyField = (policy: string, limit: number, windowSeconds: number): string => `"${policy}";q=${limit};w=${windowSeconds}`;

/** The RateLimit field of one policy: units remaining and seconds until the quota resets. */
export const ratelimitField = (policy: string, remaining: number, resetSeconds: number): string => `"${policy}";r=${remaining};t=${resetSeconds}`;

function domainErrorHeaders(error: DomainError): Readonly<Record<string, string>> {
  const { quota, retryAfterSeconds, challenge } = error;
  if (quota) return quotaHeaders(quota);
  if (challenge !== undefined) return { 'WWW-Authenticate': challenge };
  return retryAfterSeconds === undefined ? NO_HEADERS : { 'Retry-After': String(retryAfterSeconds) };
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

const DATABASE_UNAVAILABLE: ErrorAnswer = Object.freeze({
  status: 503,
  headers: Object.freeze({ 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) }),
  message: DATABASE_UNAVAILABLE_MESSAGE,
  payload: null,
});

/**
 * The answer to an error whose message is meant for the client (a domain error, an HttpError, a library's
 * 4xx); undefined for any other. Needs no request, so an answer sent again and again can be worked out once.
 */
export function clientErrorAnswer(error: unknown, path: string): ErrorAnswer | undefined {
  if (error instanceof HttpError) {
    return { status: error.status, headers: error.headers, message: error.message, payload: error.payload };
  }
  if (error instanceof DomainError) {
    return { status: STATUS_OF_KIND[error.kind], headers: domainErrorHeaders(error), message: error.message, payload: error.payload ?? null };
  }
  const { status: given, statusCode } = (error ?? {}) as KoaLikeError;
  const status = given ?? statusCode;
  if (status && status >= 400 && status < 500) {
    return { status, headers: NO_HEADERS, message: messageForLibraryError(status, error as KoaLikeError, path), payload: null };
  }
  return undefined;
}

/**
 * The one place that turns a thrown error into an answer, for the Koa applications and for the resolver's
 * front handler alike: the client's errors with their status and message; 503 with Retry-After while the
 * database cannot be reached; a generic 500 (logged with the request id) for everything else, so that no
 * internal detail leaks.
 */
export function answerForError(error: unknown, request: FailedRequest, logger: Logger): ErrorAnswer {
  const answer = clientErrorAnswer(error, request.path);
  if (answer) return answer;
  const { requestId, method, url } = request;
  if (isDatabaseUnavailable(error)) {
    // One line per failed request during an outage, at warn: the outage is not the request's fault.
    logger.warn({ requestId, method, url, reason: (error as Error).message }, 'database unavailable');
    return DATABASE_UNAVAILABLE;
  }
  logger.error({ err: error, requestId, method, url }, 'request failed');
  const { status: given, statusCode } = (error ?? {}) as KoaLikeError;
  const status = given ?? statusCode;
  return {
    status: status && status >= 500 && status < 600 ? status : 500,
    headers: NO_HEADERS,
    message: `Internal server error (request id ${requestId})`,
    payload: null,
  };
}

/**
 * An HTML document answering an error in place of the envelope, or undefined to keep the envelope: the
 * registry area's pages give browsers an error page (web/error-page.tsx). `noRoute`: no route serves the path.
 */
export type ErrorPageRenderer = (ctx: Context, status: number, message: string, noRoute: boolean) => string | undefined;

/**
 * Koa middleware: every thrown error answered by answerForError, in the envelope (or the error page an
 * area renders for it), never cached. Unknown routes get a 404 in the same envelope.
 */
export function errorTranslator(logger: Logger, errorPage?: ErrorPageRenderer): Middleware {
  const answerWith = (ctx: Context, status: number, message: string, payload: unknown, noRoute: boolean): void => {
    const page = errorPage?.(ctx, status, message, noRoute);
    ctx.status = status;
    if (page === undefined) {
      ctx.body = errorEnvelope(message, payload);
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.vary('Accept');
    ctx.body = page;
  };
  return async function translateErrors(ctx, next) {
    try {
      await next();
      // Routers leave 404 (no route) without a body; their 405s become errors in unserved-methods.ts.
      if ((ctx.body === undefined || ctx.body === null) && ctx.status === 404) {
        answerWith(ctx, 404, `No such endpoint: ${ctx.method} ${ctx.path}`, null, true);
      }
    } catch (error) {
      const request = { requestId: String(ctx.state.requestId), method: ctx.method, url: ctx.url, path: ctx.path };
      const answer = answerForError(error, request, logger);
      ctx.set('Cache-Control', 'no-store');
      ctx.set(answer.headers as Record<string, string>);
      answerWith(ctx, answer.status, answer.message, answer.payload, false);
    }
  };
}
