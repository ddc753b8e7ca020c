/**
 * An answer given before the request's body was read (a 401, 413 or 429 refused ahead of the body reader,
 * auth-before-body.ts) must not then cost the body anyway: on a keep-alive connection Node reads and throws
 * away the rest of the body once the answer is written, to reach the next request, and a client sending
 * 16 MiB bodies to be refused kept an area's event loop busy receiving them (bench:hostile, 64 connections).
 * Such an answer closes the connection instead, so the rest is never read.
 */
import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';

// Up to this much, reading the rest costs less than the client's next connection: the connection stays open.
const CHEAP_TO_DISCARD = 64 * 1024;

/** Whether `req` announced a body larger than is cheap to discard (or of unknown length) that has not all arrived. */
export function bodyStillComing(req: IncomingMessage): boolean {
  if (req.complete) return false;
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return Number(req.headers['content-length'] ?? 0) > CHEAP_TO_DISCARD;
}

/** The same for every answer of a Koa application, refusals included (mounted outside the error translator). */
export function closeAfterUnreadBody(): Middleware {
  return async function closeAfterUnreadBody(ctx, next) {
    try {
      await next();
    } finally {
      if (ctx.respond !== false && !ctx.headerSent && bodyStillComing(ctx.req)) ctx.set('Connection', 'close');
    }
  };
}
