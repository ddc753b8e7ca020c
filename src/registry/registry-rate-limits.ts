import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { isUnlimitedPath } from '../http/rate-limit-middleware.js';
import { redisRateLimits, type RateLimitFamily, type RateLimits } from '../http/rate-limiter.js';
import { isRouteUnder, routePath } from '../http/route-path.js';

// The JSON API's field validators, and the request forms' field checks that run them.
const VALIDATOR_PATHS = /^\/((prefixRegistrationApi|resourceManagementApi)\/|(prefix|resource)registrationrequest\/check\/)validate[A-Za-z]*\/?$/i;
const DATASET_PATHS = ['/resolutionApi', '/registryInsightApi'];

/**
 * The registry area's route families: field validators (and the ROR lookup the forms use alike), every
 * other write (registration requests, requesters' comments, and the curators' writes, which the curator
 * token exempts anyway), the whole-registry downloads, and every other read as browsing. Decided on the
 * route that will answer (route-path.ts), whatever the case the path is written in.
 */
export function registryFamilyOf(method: string, path: string): RateLimitFamily | null {
  if (isUnlimitedPath(path)) return null;
  const route = routePath(path);
  // A SPARQL query is a read whichever method carries it (long ones come by POST).
  if (isRouteUnder(route, '/sparql')) return 'browse';
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
    return DATASET_PATHS.some((prefix) => isRouteUnder(route, prefix)) ? 'dataset' : 'browse';
  }
  if (VALIDATOR_PATHS.test(route) || isRouteUnder(route, '/rorIdApi')) return 'validators';
  return 'submissions';
}

export const REGISTRY_LIMITED_FAMILIES: readonly RateLimitFamily[] = ['validators', 'submissions', 'browse', 'dataset'];

/**
 * Counted in Redis, so that every registry process shares one count per client (rate-limiter.ts); while
 * Redis fails or answers too late, in this process's memory, each time told to `onFallback`.
 */
export function registryRateLimits(
  config: Readonly<Config>,
  redis: Redis,
  handlers: { onError: (error: unknown) => void; onFallback: (family: RateLimitFamily, error: unknown) => void },
): RateLimits {
  return redisRateLimits({
    config,
    families: REGISTRY_LIMITED_FAMILIES,
    redis,
    // Under QUEUE_PREFIX: what keeps deployments sharing one Redis apart, and what teardown deletes.
    keyPrefix: `${config.QUEUE_PREFIX}:ratelimit`,
    ...handlers,
  });
}
