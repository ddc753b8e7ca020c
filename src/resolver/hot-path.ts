import type { Middleware } from 'koa';
import type { ReverseHandlers } from './reverse.routes.js';

/**
 * The resolver's busiest endpoints, dispatched by a plain comparison ahead of CORS and routing: GET
 * /{compactId} and the single reverse lookups. Everything else goes on to the usual middleware. These
 * answers carry their CORS header themselves.
 */
export function resolverHotPath(resolve: Middleware, reverse: ReverseHandlers): Middleware {
  return function hotPath(ctx, next) {
    const method = ctx.method;
    if (method === 'POST') {
      const path = ctx.path;
      const handler = path === '/reverse/byPrefix' ? reverse.byPrefix : path === '/reverse/bySimilarity' ? reverse.bySimilarity : undefined;
      if (!handler) return next();
      if (ctx.get('Origin')) ctx.set('Access-Control-Allow-Origin', '*');
      return handler(ctx, next);
    }
    return resolve(ctx, next);
  };
}
