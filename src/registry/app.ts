import type Koa from 'koa';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Db } from '../db/knex.js';
import { createBaseApp } from '../http/base-app.js';
import { pingPostgres } from '../db/postgres-failure.js';
import { pingRedis } from '../queue/connections.js';
import type { Logger } from '../lib/logger.js';
import { datasetRoutes } from './dataset/dataset.routes.js';
import { namespacePageRoutes } from './namespace-page/namespace-page.routes.js';
import { createNamespacePageService } from './namespace-page/namespace-page.service.js';
import { RestApiCaches, RestApiData } from './rest-api/page-query.js';
import { RegistryVersionSource } from './rest-api/registry-version.js';
import { personRoutes } from './rest-api/persons.routes.js';
import { createPersonsService } from './rest-api/persons.service.js';
import { restApiRoutes } from './rest-api/rest-api.routes.js';
import { statisticsRoutes } from './statistics/statistics.routes.js';
import { createStatisticsService } from './statistics/statistics.service.js';
import { schemaOrgRoutes } from './schema-org/schema-org.routes.js';
import { createSchemaOrgService } from './schema-org/schema-org.service.js';
import type { RegexTest, UrlCheck } from './registration/checks.js';
import { rorRoutes } from './registration/ror/ror.routes.js';
import { RegistrationValidator } from './registration/registration-validator.js';
import { createRorService } from './registration/ror/ror.service.js';
import { validationRoutes } from './registration/validation/validation.routes.js';
import { createCurationActions } from './curation/curation-actions.js';
import { curationRoutes } from './curation/curation.routes.js';
import { submissionRoutes } from './registration/submission/submission.routes.js';
import { SubmissionService } from './registration/submission/submission.service.js';

export interface RegistryAppDeps {
  config: Readonly<Config>;
  db: Db;
  redis: Redis;
  logger: Logger;
  /**
   * The registration checks (queue-backed URL check, worker-thread regex test); the registration
   * validation endpoints are mounted only when they are given.
   */
  registration?: { urlCheck: UrlCheck; regexTest: RegexTest };
  /**
   * The registry version the browse caches key by; the service's listens for registry changes (see
   * rest-api/registry-version.ts). Without it the caches keep values a few seconds at most.
   */
  registryVersions?: RegistryVersionSource;
}

/**
 * The registry area: browse, dataset, registration and statistics (each feature adds its routes here). The
 * routes are given services built here on the database; they never query it themselves.
 */
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
  // The regex checks are shared fairly between clients by ctx.ip, which behind a proxy is X-Forwarded-For.
  app.proxy = deps.config.TRUST_PROXY;
  const namespacePage = namespacePageRoutes({ namespaces: createNamespacePageService(deps.db), publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL });
  app.use(namespacePage.routes()).use(namespacePage.allowedMethods());
  const dataset = datasetRoutes({ config: deps.config, redis: deps.redis, logger: deps.logger });
  app.use(dataset.routes()).use(dataset.allowedMethods());
  // Submissions and curation: mounted ahead of /restApi so that the curators' /restApi reads never pass
  // through the browse API's shared answer cache.
  const notifications = {
    publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL,
    publicResolverUrl: deps.config.PUBLIC_RESOLVER_URL,
    curatorEmail: deps.config.CURATOR_EMAIL,
  };
  const validator = deps.registration && new RegistrationValidator(deps.config, deps.db, deps.registration);
  const curation = curationRoutes({
    curation: createCurationActions(deps.db, { notifications, validator }),
    curatorToken: deps.config.CURATOR_TOKEN,
    publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL,
  });
  app.use(curation.routes()).use(curation.allowedMethods());
  if (validator) {
    const submission = submissionRoutes({ submissions: new SubmissionService({ db: deps.db, validator, notifications }) });
    app.use(submission.routes()).use(submission.allowedMethods());
  }
  // Ahead of /restApi too: a person's answer depends on the caller, and the browse API's cache on the URL only.
  const persons = personRoutes({
    persons: createPersonsService(deps.db),
    publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL,
    curatorToken: deps.config.CURATOR_TOKEN,
  });
  app.use(persons.routes()).use(persons.allowedMethods());
  const versions = deps.registryVersions ?? new RegistryVersionSource(deps.db);
  const restApi = restApiRoutes({
    data: new RestApiData(deps.db, new RestApiCaches(versions.maxAgeMs)),
    publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL,
    versions,
    answerCacheBytes: deps.config.REGISTRY_CACHE_MAX_MB * 1024 * 1024,
  });
  app.use(restApi.routes()).use(restApi.allowedMethods());
  const statistics = statisticsRoutes({ statistics: createStatisticsService(deps.db, deps.redis) });
  app.use(statistics.routes()).use(statistics.allowedMethods());
  const schemaOrg = schemaOrgRoutes({
    namespaces: createSchemaOrgService(deps.db),
    publicResolverUrl: deps.config.PUBLIC_RESOLVER_URL,
    publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL,
  });
  app.use(schemaOrg.routes()).use(schemaOrg.allowedMethods());
  const ror = rorRoutes({ ror: createRorService(deps.db) });
  app.use(ror.routes()).use(ror.allowedMethods());
  if (validator) {
    const validation = validationRoutes(validator);
    app.use(validation.routes()).use(validation.allowedMethods());
  }
  return app;
}
