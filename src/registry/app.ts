import type Koa from 'koa';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Db } from '../db/knex.js';
import { createBaseApp } from '../http/base-app.js';
import { pingPostgres, pingRedis } from '../lib/dependencies.js';
import type { Logger } from '../lib/logger.js';
import { datasetRoutes } from './dataset/dataset.routes.js';
import { namespacePageRoutes } from './namespace-page/namespace-page.routes.js';
import { restApiRoutes } from './rest-api/rest-api.routes.js';
import { statisticsRoutes } from './statistics/statistics.routes.js';
import { schemaOrgRoutes } from './schema-org/schema-org.routes.js';

export interface RegistryAppDeps {
  config: Readonly<Config>;
  db: Db;
  redis: Redis;
  logger: Logger;
}

/** The registry area: browse, dataset, registration and statistics (each feature adds its routes here). */
export function createRegistryApp(deps: RegistryAppDeps): Koa {
  const app = createBaseApp({
    logger: deps.logger,
    logSampleRate: deps.config.LOG_REQUEST_SAMPLE_RATE,
    corsMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    checks: [
      { name: 'postgres', check: () => pingPostgres(deps.db) },
      { name: 'redis', check: () => pingRedis(deps.redis) },
    ],
  });
  const namespacePage = namespacePageRoutes({ db: deps.db, publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL });
  app.use(namespacePage.routes()).use(namespacePage.allowedMethods());
  const dataset = datasetRoutes({ config: deps.config, redis: deps.redis, logger: deps.logger });
  app.use(dataset.routes()).use(dataset.allowedMethods());
  const restApi = restApiRoutes({ db: deps.db, publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL });
  app.use(restApi.routes()).use(restApi.allowedMethods());
  const statistics = statisticsRoutes({ db: deps.db, redis: deps.redis });
  app.use(statistics.routes()).use(statistics.allowedMethods());
  const schemaOrg = schemaOrgRoutes({ db: deps.db, publicResolverUrl: deps.config.PUBLIC_RESOLVER_URL, publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL });
  app.use(schemaOrg.routes()).use(schemaOrg.allowedMethods());
  return app;
}
