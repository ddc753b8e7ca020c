import type { Middleware } from 'koa';

export interface CorsOptions {
  methods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
  /** Origins whose pages may also send curators' requests (see TrustedCors); none when absent. */
  trusted?: TrustedCors;
}

/**
 * The curators' pages on other origins (CURATION_CORS_ORIGINS): their preflights may ask for the write
 * methods and for Authorization, which carries the curator's bearer token. Any other origin's preflight is
 * answered with the public methods and headers only, so the browser never sends it a write or the token.
 */
export interface TrustedCors {
  /** Lower-case origins as browsers send them (`https://curation.example.org`, no trailing slash). */
  origins: readonly string[];
  methods: string[];
}

/** The origins of a comma-separated setting, lower-cased, without a trailing slash. */
export function parseOrigins(setting: string): string[] {
  return setting
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, '').toLowerCase())
    .filter((origin) => origin !== '');
}

/** What both areas let a page on another origin send and read. */
export const PUBLIC_CORS: Omit<CorsOptions, 'methods'> = {
  // Authorization is not among them: the only bearers are the curators' (the curator token, an access token
  // with OIDC_API_AUDIENCE), and a page on another origin has no business sending them unless it is one of
  // CURATION_CORS_ORIGINS (a preflight asking for it fails, so the browser never sends the token).
  // Mcp-Protocol-Version: what an MCP client in a page sends with every message after the first (POST /mcp).
  allowHeaders: ['Content-Type', 'Accept', 'X-Request-Id', 'If-None-Match', 'If-Modified-Since', 'Idempotency-Key', 'Mcp-Protocol-Version'],
  exposeHeaders: ['X-Request-Id', 'ETag', 'Last-Modified', 'Retry-After', 'Location', 'RateLimit', 'RateLimit-Policy'],
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
  const trustedOrigins = new Set(options.trusted?.origins ?? []);
  const trustedMethods = options.trusted?.methods.join(',') ?? methods;
  const trustedHeaders = [...options.allowHeaders, 'Authorization'].join(',');
  return function cors(ctx, next) {
    const origin = ctx.get('Origin');
    if (!origin) return next();
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      // Only a trusted origin's preflight depends on the origin; it names that origin, and says so to caches.
      const trusted = trustedOrigins.size > 0 && trustedOrigins.has(origin.toLowerCase());
      ctx.set('Access-Control-Allow-Origin', trusted ? origin : '*');
      if (trustedOrigins.size > 0) ctx.vary('Origin');
      ctx.set('Access-Control-Allow-Methods', trusted ? trustedMethods : methods);
      ctx.set('Access-Control-Allow-Headers', trusted ? trustedHeaders : allowHeaders);
      ctx.set('Access-Control-Max-Age', maxAge);
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', exposeHeaders);
    return next();
  };
}

/** openCors's headers with PUBLIC_CORS, name and value in turn, for an answer on the bare Node response (never a preflight). */
export const OPEN_CORS_HEADERS: readonly string[] = ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', PUBLIC_EXPOSE_HEADERS];
