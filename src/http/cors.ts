import type { Middleware } from 'koa';

export interface CorsOptions {
  methods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

/**
 * CORS for public APIs without cookies: any origin, no credentials. Written out instead of @koa/cors
 * because it runs on every request of the resolver's hot path: a request without an Origin header (most
 * API clients) costs one header lookup, and answers carry no Vary header (the answer is the same for
 * every origin).
 */
export function openCors(options: CorsOptions): Middleware {
  const methods = options.methods.join(',');
  const allowHeaders = options.allowHeaders.join(',');
  const exposeHeaders = options.exposeHeaders.join(',');
  const maxAge = String(options.maxAgeSeconds);
  return function cors(ctx, next) {
    if (!ctx.get('Origin')) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', methods);
      ctx.set('Access-Control-Allow-Headers', allowHeaders);
      ctx.set('Access-Control-Max-Age', maxAge);
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', exposeHeaders);
    return next();
  };
}
