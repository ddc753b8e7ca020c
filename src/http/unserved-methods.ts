import type { Middleware } from 'koa';
import { HttpError } from './http-error.js';

/** The methods a path serves, in the order of its Allow header; undefined for a path nothing serves. */
export type ServedMethods = (path: string) => readonly string[] | undefined;

/** GET routes serve HEAD too; listed as @koa/router lists them, so both areas' Allow headers read alike. */
export const HEAD_AND_GET: readonly string[] = ['HEAD', 'GET'];

export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): HttpError {
  return new HttpError(405, `Method ${method} is not allowed on ${path}; use ${allowed.join(' or ')}`, { Allow: allowed.join(', ') });
}

/**
 * A known path asked with a method it does not serve answers 405 with Allow, whatever the method. Left to
 * themselves, @koa/router answers 405 only for the seven methods it knows and a plain-text 501 for every
 * other method Node accepts (TRACE, PROPFIND, ...), on any path; and the paths answered outside routers
 * (health, the resolver's compact identifiers and landing pages, given by `servedAt`) answer 404. An unknown
 * path stays 404, whatever the method. OPTIONS is left as it is: the routers answer it, and CORS preflights
 * never get here.
 */
export function answerUnservedMethods(servedAt: ServedMethods): Middleware {
  return async function unservedMethods(ctx, next) {
    await next();
    const { status, method } = ctx;
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (status !== 404 && status !== 405 && status !== 501) return;
    if (method === 'OPTIONS' && status === 404) return;
    // 405 and 501 without a body come from a router's allowedMethods, which lists the path's routes.
    const listed = status === 404 ? '' : ctx.response.get('Allow');
    const allowed = listed ? listed.split(/\s*,\s*/) : servedAt(ctx.path);
    ctx.remove('Allow');
    if (allowed && !allowed.includes(method)) throw methodNotAllowed(method, ctx.path, allowed);
    // An unknown method on an unknown path: the router's 501 becomes the usual 404.
    ctx.status = 404;
  };
}
