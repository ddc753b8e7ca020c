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
import type { RegistryVersionSource } from './rest-api/registry-version.js';
import { personRoutes } from './rest-api/persons.routes.js';
import { restApiRoutes } from './rest-api/rest-api.routes.js';
import { statisticsRoutes } from './statistics/statistics.routes.js';
import { schemaOrgRoutes } from './schema-org/schema-org.routes.js';
import type { RegexTest, UrlCheck } from './registration/checks.js';
import { rorRoutes } from './registration/ror/ror.routes.js';
import { RegistrationValidator } from './registration/registration-validator.js';
import { validationRoutes } from './registration/validation/validation.routes.js';
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
  // The regex checks are shared fairly between clients by ctx.ip, which behind a proxy is X-Forwarded-For.
  app.proxy = deps.config.TRUST_PROXY;
  const namespacePage = namespacePageRoutes({ db: deps.db, publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL });
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
    db: deps.db,
    curatorToken: deps.config.CURATOR_TOKEN,
    publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL,
    notifications,
    validator,
  });
  app.use(curation.routes()).use(curation.allowedMethods());
  if (validator) {
    const submission = submissionRoutes({ submissions: new SubmissionService({ db: deps.db, validator, notifications }) });
    app.use(submission.routes()).use(submission.allowedMethods());
  }
  // Ahead of /restApi too: a person's answer depends on the caller, and the browse API's cache on the URL only.
  const persons = personRoutes({ db: deps.db, publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL, curatorToken: deps.config.CURATOR_TOKEN });
  app.use(persons.routes()).use(persons.allowedMethods());
  const restApi = restApiRoutes({
    db: deps.db,
    publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL,
    versions: deps.registryVersions,
    answerCacheBytes: deps.config.REGISTRY_CACHE_MAX_MB * 1024 * 1024,
  });
  app.use(restApi.routes()).use(restApi.allowedMethods());
  const statistics = statisticsRoutes({ db: deps.db, redis: deps.redis });
  app.use(statistics.routes()).use(statistics.allowedMethods());
  const schemaOrg = schemaOrgRoutes({ db: deps.db, publicResolverUrl: deps.config.PUBLIC_RESOLVER_URL, publicRegistryUrl: deps.config.PUBLIC_REGISTRY_URL });
  app.use(schemaOrg.routes()).use(schemaOrg.allowedMethods());
  const ror = rorRoutes({ db: deps.db });
  app.use(ror.routes()).use(ror.allowedMethods());
  if (validator) {
    const validation = validationRoutes(validator);
    app.use(validation.routes()).use(validation.allowedMethods());
  }
  return app;
}
