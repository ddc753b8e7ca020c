import type { Config } from '../config.js';
import { isUnlimitedPath } from '../http/rate-limit-middleware.js';
import { isDocsPath } from '../openapi/docs.routes.js';
import { memoryRateLimits, type RateLimitFamily, type RateLimits } from '../http/rate-limiter.js';
import { isRouteUnder, routePath } from '../http/route-path.js';

/**
 * The resolver's route families. The front handler counts the single resolutions and reverse lookups itself
 * (front-handler.ts); the Koa application counts the rest with this: batches (weighted by their items, see
 * batch.routes.ts), the insight API (the whole registry in one answer, as the dataset), the docs page as
 * browsing, provider metadata (/metadataApi, one item of the batch family each), and MIR ids, landing pages, MCP messages (POST /mcp, each message of a JSON-RPC batch, see
 * mcp.routes.ts) and whatever else as resolutions. Decided on the route that will answer (route-path.ts):
 * the requests the front handler leaves to Koa are matched by routers whatever their case.
 */
export function resolverFamilyOf(method: string, path: string): RateLimitFamily | null {
  if (isUnlimitedPath(path)) return null;
  const route = routePath(path);
  if (method === 'POST' && (route === '/resolve/batch' || route === '/reverse/batch')) return 'batch';
  // A provider-metadata request may cost a page fetch: counted with the batches' items, one each.
  if (isRouteUnder(route, '/metadataApi')) return 'batch';
  if (isRouteUnder(route, '/insightApi')) return 'dataset';
  // The docs page and its document are browsing, limited as the registry's pages are.
  if (isDocsPath(route)) return 'browse';
  if (isRouteUnder(route, '/reverse')) return 'reverse';
  return 'resolution';
}

/**
 * In memory, per process (no Redis round trip on the hot path), each process allowing its share of the
 * limits (RESOLVER_INSTANCES).
 */
export function resolverRateLimits(config: Readonly<Config>, onError: (error: unknown) => void): RateLimits {
  return memoryRateLimits({
    config,
    families: ['resolution', 'reverse', 'batch', 'dataset', 'browse'],
    instances: config.RESOLVER_INSTANCES,
    onError,
  });
}
