import type { Middleware } from 'koa';

export interface CorsOptions {
  methods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

/** What both areas let a page on another origin send and read. */
export const PUBLIC_CORS: Omit<CorsOptions, 'methods'> = {
  // Authorization is not among them: the only bearer is the curator token, and a page on another origin
  // has no business sending it (a preflight asking for it fails, so the browser never sends the token).
  allowHeaders: ['Content-Type', 'Accept', 'X-Request-Id', 'If-None-Match', 'If-Modified-Since', 'Idempotency-Key'],
  exposeHeaders: ['X-Request-Id', 'ETag', 'Last-Modified', 'Retry-After', 'Location'],
  maxAgeSeconds: 86400,
};

const PUBLIC_EXPOSE_HEADERS = PUBLIC_CORS.exposeHeaders.join(',');

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

/** openCors's headers with PUBLIC_CORS, name and value in turn, for an answer on the bare Node response (never a preflight). */
export const OPEN_CORS_HEADERS: readonly string[] = ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', PUBLIC_EXPOSE_HEADERS];
