/**
 * Authentication before the body (issue 21 item 5): a route for curators checks its caller before it reads a
 * single byte of the request body, so an anonymous request costs a header check, never a read and a parse of
 * megabytes. The body readers (json-body.ts, form-body.ts) mark the request once they have read its body;
 * the curators' guards (the bearer token, the desk session, the queue board's) refuse to run on a request
 * whose body was read, so a route that puts a body reader ahead of its guard fails on its first request
 * (in its tests) rather than in production.
 */
import type { Context } from 'koa';

const BODY_READ = Symbol('request body read');

type Marked = Record<symbol, true | undefined>;

export function markBodyRead(ctx: Context): void {
  (ctx.state as Marked)[BODY_READ] = true;
}

/** Throws (a 500: the route is built wrong) when the request's body was read before `guard` ran. */
export function assertBodyUnread(ctx: Context, guard: string): void {
  if ((ctx.state as Marked)[BODY_READ]) {
    throw new Error(`${ctx.method} ${ctx.path} reads the request body before ${guard}: mount the guard first`);
  }
}
