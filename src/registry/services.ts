/**
 * The registry area's shared services, built once per app on its database and Redis and handed to the
 * features' mounts (app.ts): what more than one feature uses, as the model declares it (model/registry-area.ts).
 */
import type { Redis } from 'ioredis';
import type { Context } from 'koa';
import type { Registry } from 'prom-client';
import { splitList, type Config } from '../config.js';
import type { Db } from '../db/knex.js';
import type { ReadDb } from '../db/read-db.js';
import type { Logger } from '../lib/logger.js';
import { RateLimitFallbacks } from '../metrics/rate-limit-fallback.js';
import type { RateLimits } from '../http/rate-limiter.js';
import type { Site } from '../web/site.js';
import { StaticAssets } from '../web/static-assets.js';
import { createWarningsOverview } from './curation-warnings/warnings-overview.service.js';
import { createCurationActions } from './curation/curation-actions.js';
import { createHealthApiService } from './health-api/health-api.service.js';
import { MaintenanceService } from './maintenance/maintenance.service.js';
import { AccessTokens } from './model/access-tokens.js';
import { createPrefixCollisionCheck } from './model/collision-warnings.js';
import { isSignedInAtDesk } from './model/desk-auth.js';
import { DeskSessions } from './model/desk-sessions.service.js';
import { NamespaceSearch } from './model/namespace-search.service.js';
import { notificationSettings } from './model/notification-messages.js';
import { RestApiCaches, RestApiData } from './model/page-query.js';
import type { RegistryArea } from './model/registry-area.js';
import type { RegexTest, UrlCheck } from './model/registration-checks.js';
import { RegistryVersionSource } from './model/registry-version.js';
import { WrongTokenThrottle } from './model/wrong-token-throttle.js';
import { RegistrationValidator } from './registration/registration-validator.js';
import { REGISTRY_LIMITED_FAMILIES, registryRateLimits } from './registry-rate-limits.js';
import { createStatisticsService } from './statistics/statistics.service.js';
import type { SparqlPool } from './sparql/sparql-pool.js';

export interface RegistryAppDeps {
  config: Readonly<Config>;
  db: Db;
  /** Where the browse API reads (DATABASE_READ_URL's replica, see db/read-db.ts); `db` when absent. */
  reads?: ReadDb;
  redis: Redis;
  logger: Logger;
  /**
   * The registration checks (queue-backed URL check, worker-thread regex test); the registration
   * validation endpoints are mounted only when they are given.
   */
  registration?: { urlCheck: UrlCheck; regexTest: RegexTest };
  /**
   * The registry version the browse caches key by; the service's listens for registry changes (see
   * model/registry-version.ts). Without it the caches keep values a few seconds at most.
   */
  registryVersions?: RegistryVersionSource;
  /** The process's metrics registry (main.ts, with the process metrics); one of the app's own without. */
  metrics?: Registry;
  /** The SPARQL endpoint's query threads; /sparql is mounted only when they are given (main.ts makes and closes them). */
  sparql?: SparqlPool;
}

export function registrySite(config: Readonly<Config>): Site {
  return { publicResolverUrl: config.PUBLIC_RESOLVER_URL, publicRegistryUrl: config.PUBLIC_REGISTRY_URL, assets: new StaticAssets() };
}

/** The area's rate limits, and what its features are mounted with. */
export function createRegistryServices(
  deps: RegistryAppDeps,
  site: Site,
  metrics: Registry,
): { limits: RateLimits; area: RegistryArea & { validator?: RegistrationValidator } } {
  const { config, db, redis, logger } = deps;
  const fallbacks = new RateLimitFallbacks(metrics, REGISTRY_LIMITED_FAMILIES, logger);
  const limits = registryRateLimits(config, redis, {
    onError: (error) => logger.error({ err: error }, 'rate limit counter failed; request let through'),
    onFallback: fallbacks.record,
  });
  const sessions = new DeskSessions(db, config.CURATOR_SESSION_HOURS);
  const validator = deps.registration && new RegistrationValidator(config, db, deps.registration);
  const versions = deps.registryVersions ?? new RegistryVersionSource(db);
  const browseDb = deps.reads?.db ?? db;
  const restApiData = new RestApiData(browseDb, new RestApiCaches(versions.maxAgeMs));
  const area = {
    config,
    db,
    browseDb,
    redis,
    logger,
    metrics,
    site,
    sessions,
    versions,
    restApiData,
    validator,
    tokenThrottle: new WrongTokenThrottle({ redis, queuePrefix: config.QUEUE_PREFIX, logger }),
    accessTokens:
      config.OIDC_API_AUDIENCE.trim() === ''
        ? undefined
        : new AccessTokens({
            issuer: config.OIDC_ISSUER,
            audience: config.OIDC_API_AUDIENCE.trim(),
            curatorRoles: splitList(config.OIDC_CURATOR_ROLE),
            userAgent: `curie-resolver-registry/1.0 (+${config.PUBLIC_REGISTRY_URL})`,
            logger,
          }),
    isCurator: async (ctx: Context) => limits.exempt(ctx.get('Authorization')) || (await isSignedInAtDesk(ctx, sessions)),
    search: new NamespaceSearch(db, restApiData, versions),
    statistics: createStatisticsService(db, redis),
    health: createHealthApiService(db),
    prefixCollisions: createPrefixCollisionCheck(db),
    curation: createCurationActions(db, { notifications: notificationSettings(config), validator }),
    maintenance: new MaintenanceService(db, validator),
    warnings: createWarningsOverview(db),
  };
  return { limits, area };
}
