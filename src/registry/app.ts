import type Koa from 'koa';
import type { Context } from 'koa';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Db } from '../db/knex.js';
import type { ReadDb } from '../db/read-db.js';
import { createBaseApp, useRouters } from '../http/base-app.js';
import { clientAddressFromSetting, trustsProxies } from '../http/client-address.js';
import { limitRequests } from '../http/rate-limit-middleware.js';
import { pingPostgres } from '../db/postgres-failure.js';
import { pingRedis } from '../queue/connections.js';
import { docsRoutes } from '../openapi/docs.routes.js';
import { SERVICE_VERSION } from '../openapi/openapi-document.js';
import type { Logger } from '../lib/logger.js';
import { changesRoutes } from './changes/changes.routes.js';
import { createChangeFeedService } from './changes/change-feed.service.js';
import { datasetRoutes } from './dataset/dataset.routes.js';
import { healthApiRoutes } from './health-api/health-api.routes.js';
import { createHealthApiService } from './health-api/health-api.service.js';
import { namespacePageRoutes } from './namespace-page/namespace-page.routes.js';
import { createNamespacePageService } from './namespace-page/namespace-page.service.js';
import { namespaceRdfRoutes } from './namespace-page/namespace-rdf.routes.js';
import { createNamespaceRdfService } from './namespace-page/namespace-rdf.service.js';
import { RestApiCaches, RestApiData } from './model/page-query.js';
import { RegistryVersionSource } from './model/registry-version.js';
import { personRoutes } from './rest-api/persons.routes.js';
import { createPersonsService } from './rest-api/persons.service.js';
import { restApiRoutes } from './rest-api/rest-api.routes.js';
import { statisticsRoutes } from './statistics/statistics.routes.js';
import { createStatisticsService } from './statistics/statistics.service.js';
import { schemaOrgRoutes } from './schema-org/schema-org.routes.js';
import { createSchemaOrgService } from './schema-org/schema-org.service.js';
import type { RegexTest, UrlCheck } from './model/registration-checks.js';
import { rorRoutes } from './registration/ror/ror.routes.js';
import { RegistrationValidator } from './registration/registration-validator.js';
import { createRorService } from './registration/ror/ror.service.js';
import { validationRoutes } from './registration/validation/validation.routes.js';
import { createCurationActions } from './curation/curation-actions.js';
import { curationRoutes } from './curation/curation.routes.js';
import { submissionRoutes } from './registration/submission/submission.routes.js';
import { parseOrigins } from '../http/cors.js';
import { maintenanceRoutes } from './maintenance/maintenance.routes.js';
import { MaintenanceService } from './maintenance/maintenance.service.js';
import { warningsRoutes } from './curation-warnings/warnings.routes.js';
import { createWarningsActions } from './curation-warnings/warnings.service.js';
import { pagesRoutes } from './pages/pages.routes.js';
import { registrationPagesRoutes } from './registration/pages/registration-pages.routes.js';
import { RegistryPagesService } from './pages/registry-pages.service.js';
import { lookUpUrl } from './pages/reverse-lookup.service.js';
import { createEbiDatasetAnswers } from './search/ebi-dataset-answers.js';
import { NamespaceSearch } from './model/namespace-search.service.js';
import { searchRoutes } from './search/search.routes.js';
import { prefixSynonymRoutes } from './synonyms/prefix-synonyms.routes.js';
import { createPrefixSynonymsService } from './synonyms/prefix-synonyms.service.js';
import { createPrefixCollisionCheck } from './model/collision-warnings.js';
import { createReferencePrefixesService } from './curator-desk/reference-prefixes.service.js';
import { htmlErrorPage } from '../web/error-page.js';
import type { Site } from '../web/site.js';
import { StaticAssets } from '../web/static-assets.js';
import { SubmissionService } from './registration/submission/submission.service.js';
import { isSignedInAtDesk } from './model/desk-auth.js';
import { WrongTokenThrottle } from './model/wrong-token-throttle.js';
import { createDeskKit } from './curator-desk/desk-kit.js';
import { deskReferencePrefixRoutes } from './curator-desk/desk-reference-prefixes.routes.js';
import { deskRegistryRoutes } from './curator-desk/desk-registry.routes.js';
import { DeskSessions } from './model/desk-sessions.service.js';
import { deskSignInRoutes } from './curator-desk/desk-sign-in.routes.js';
import { deskRoutes } from './curator-desk/desk.routes.js';
import { DeskService } from './curator-desk/desk.service.js';
import { OidcSignIn } from './curator-desk/oidc-sign-in.service.js';
import { splitList } from '../config.js';
import { REGISTRY_LIMITED_FAMILIES, registryFamilyOf, registryRateLimits } from './registry-rate-limits.js';
import { RateLimitFallbacks } from '../metrics/rate-limit-fallback.js';
import { registrationQuota } from './registration/submission/daily-quota.js';
import { Registry } from 'prom-client';
import { meteredFamilyOf } from '../http/metrics-middleware.js';
import { HttpMeter } from '../metrics/http-meter.js';
import { REGISTRY_FAMILIES } from '../metrics/route-families.js';
import { adminQueuesRedirect, queueBoardMiddleware } from './queue-board/queue-board.routes.js';

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
   * rest-api/registry-version.ts). Without it the caches keep values a few seconds at most.
   */
  registryVersions?: RegistryVersionSource;
  /** The process's metrics registry (main.ts, with the process metrics); one of the app's own without. */
  metrics?: Registry;
}

/**
 * The registry area: browse, dataset, registration, statistics and the link checks' health API (each feature adds its routes here). The
 * routes are given services built here on the database; they never query it themselves.
 */
export function createRegistryApp(deps: RegistryAppDeps): Koa {
  const { config, db } = deps;
  const site: Site = {
    publicResolverUrl: config.PUBLIC_RESOLVER_URL,
    publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    assets: new StaticAssets(),
  };
  const metrics = deps.metrics ?? new Registry();
  const meter = new HttpMeter(REGISTRY_FAMILIES);
  meter.register(metrics);
  const app = createBaseApp({
    logger: deps.logger,
    logSampleRate: config.LOG_REQUEST_SAMPLE_RATE,
    corsMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    // The curators' pages elsewhere may also edit (PATCH, PUT) and delete, with their bearer token.
    trustedCors: {
      origins: parseOrigins(config.CURATION_CORS_ORIGINS),
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    },
    checks: [
      { name: 'postgres', check: () => pingPostgres(db) },
      ...(deps.reads?.separate ? [{ name: 'postgres-replica', check: () => pingPostgres(deps.reads!.db) }] : []),
      { name: 'redis', check: () => pingRedis(deps.redis) },
    ],
    errorPage: htmlErrorPage(site),
    // Rate limits and the fair sharing of regex checks key by ctx.ip, which behind proxies is X-Forwarded-For's.
    clientAddress: clientAddressFromSetting(config.TRUST_PROXY),
    metrics: {
      registry: metrics,
      meter,
      familyOf: meteredFamilyOf(registryFamilyOf),
      token: config.METRICS_TOKEN,
      onAreaPort: config.REGISTRY_METRICS_PORT === 0,
    },
  });
  // X-Forwarded-Proto (ctx.secure, for the form cookies) and -Host behind a proxy.
  app.proxy = trustsProxies(config.TRUST_PROXY);
  const fallbacks = new RateLimitFallbacks(metrics, REGISTRY_LIMITED_FAMILIES, deps.logger);
  const limits = registryRateLimits(config, deps.redis, {
    onError: (error) => deps.logger.error({ err: error }, 'rate limit counter failed; request let through'),
    onFallback: fallbacks.record,
  });
  // The curator desk: sessions in Postgres; sign-in with CURATOR_TOKEN and/or OpenID Connect.
  const deskSessions = new DeskSessions(db, config.CURATOR_SESSION_HOURS);
  // One count of wrong curator tokens per address for every place the token is taken, shared in Redis.
  const tokenThrottle = new WrongTokenThrottle({ redis: deps.redis, queuePrefix: config.QUEUE_PREFIX, logger: deps.logger });
  app.use(limitRequests(limits, registryFamilyOf, { advertise: true, curatorRequest: (ctx) => isSignedInAtDesk(ctx, deskSessions) }));
  const notifications = {
    publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    publicResolverUrl: config.PUBLIC_RESOLVER_URL,
    curatorEmail: config.CURATOR_EMAIL,
  };
  const validator = deps.registration && new RegistrationValidator(config, db, deps.registration);
  const quota = registrationQuota(config, deps.redis, (error) => deps.logger.warn({ err: error }, 'registration quota store failed; counting in memory meanwhile'));
  const submissions = validator && new SubmissionService({ db, validator, notifications, quota });
  const isCurator = async (ctx: Context) => limits.exempt(ctx.get('Authorization')) || (await isSignedInAtDesk(ctx, deskSessions));
  const versions = deps.registryVersions ?? new RegistryVersionSource(db);
  const restApiData = new RestApiData(deps.reads?.db ?? db, new RestApiCaches(versions.maxAgeMs));
  const statistics = createStatisticsService(db, deps.redis);
  const search = new NamespaceSearch(db, restApiData, versions);
  const healthApi = createHealthApiService(db);
  const ror = createRorService(db, {
    baseUrl: config.ROR_API_URL,
    allowPrivateNetworks: config.URL_CHECK_ALLOW_PRIVATE_NETWORKS,
    userAgent: `curie-resolver-registry/1.0 (+${config.PUBLIC_REGISTRY_URL})`,
  });
  const maintenance = new MaintenanceService(db, validator);
  const prefixCollisions = createPrefixCollisionCheck(db);
  const curation = createCurationActions(db, { notifications, validator });
  const userAgent = `curie-resolver-registry/1.0 (+${config.PUBLIC_REGISTRY_URL})`;
  const oidc =
    config.OIDC_ISSUER === ''
      ? undefined
      : new OidcSignIn(
          {
            issuer: config.OIDC_ISSUER,
            clientId: config.OIDC_CLIENT_ID,
            clientSecret: config.OIDC_CLIENT_SECRET,
            curators: splitList(config.OIDC_CURATORS),
            redirectUri: `${config.PUBLIC_REGISTRY_URL}/curation/oidc/callback`,
            userAgent,
          },
          deskSessions,
        );
  const deskKit = createDeskKit({ site, sessions: deskSessions, tokenSignIn: config.CURATOR_TOKEN !== '', oidcProvider: oidc?.providerName });
  const desk = new DeskService({ db, curation, maintenance, search, validator, publicRegistryUrl: config.PUBLIC_REGISTRY_URL, prefixCollisions });
  // The queue board (bull-board) under the desk's path, behind its sign-in or the curator token.
  for (const middleware of queueBoardMiddleware({
    redis: deps.redis,
    queuePrefix: config.QUEUE_PREFIX,
    curatorToken: config.CURATOR_TOKEN,
    signInEnabled: config.CURATOR_TOKEN !== '' || oidc !== undefined,
    publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    sessions: deskSessions,
    tokenThrottle,
    logger: deps.logger,
  })) {
    app.use(middleware);
  }
  useRouters(app, [
    adminQueuesRedirect(),
    site.assets.routes(),
    // Ahead of /registry/{prefix}, whose paths these share.
    searchRoutes({
      search,
      ebiDataset: createEbiDatasetAnswers(db, versions, { publicResolverUrl: config.PUBLIC_RESOLVER_URL, publicRegistryUrl: config.PUBLIC_REGISTRY_URL }),
      publicResolverUrl: config.PUBLIC_RESOLVER_URL,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
    // Ahead of the page and the HAL redirect on /registry/{prefix}: RDF for a client that asks for it.
    namespaceRdfRoutes({
      namespaces: createNamespaceRdfService(db),
      urls: { publicResolverUrl: config.PUBLIC_RESOLVER_URL, publicRegistryUrl: config.PUBLIC_REGISTRY_URL },
    }),
    pagesRoutes({
      site,
      pages: new RegistryPagesService({ db, data: restApiData, versions, statistics, health: healthApi }),
      search,
      lookUpUrl: (url) => lookUpUrl(db, config.PUBLIC_RESOLVER_URL, url),
    }),
    namespacePageRoutes({ namespaces: createNamespacePageService(db), publicRegistryUrl: config.PUBLIC_REGISTRY_URL }),
    datasetRoutes({ config, redis: deps.redis, logger: deps.logger, metrics }),
    // Read where the browse API reads (the replica when there is one).
    prefixSynonymRoutes({ synonyms: createPrefixSynonymsService(deps.reads?.db ?? db) }),
    changesRoutes({ changes: createChangeFeedService(db), publicRegistryUrl: config.PUBLIC_REGISTRY_URL }),
    // Submissions and curation: mounted ahead of /restApi so that the curators' /restApi reads never pass
    // through the browse API's shared answer cache.
    // Registry maintenance: ahead of /restApi as well, whose router answers only reads.
    maintenanceRoutes({
      maintenance,
      curatorToken: config.CURATOR_TOKEN,
      curatorName: config.CURATOR_NAME,
      tokenThrottle,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
    warningsRoutes({
      warnings: createWarningsActions(db),
      curatorToken: config.CURATOR_TOKEN,
      curatorName: config.CURATOR_NAME,
      tokenThrottle,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
    curationRoutes({
      curation,
      curatorToken: config.CURATOR_TOKEN,
      curatorName: config.CURATOR_NAME,
      tokenThrottle,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
    ...(submissions ? [submissionRoutes({ submissions, isCurator })] : []),
    ...(submissions
      ? [registrationPagesRoutes({ site, submissions, ror, minDescriptionLength: config.REGISTRATION_MIN_DESCRIPTION_LENGTH, isCurator })]
      : []),
    deskSignInRoutes({
      site,
      kit: deskKit,
      sessions: deskSessions,
      curatorToken: config.CURATOR_TOKEN,
      curatorName: config.CURATOR_NAME,
      tokenThrottle,
      oidc,
    }),
    deskRoutes({ kit: deskKit, desk }),
    deskRegistryRoutes({ kit: deskKit, desk }),
    deskReferencePrefixRoutes({ kit: deskKit, referencePrefixes: createReferencePrefixesService(db) }),
    // Ahead of /restApi too: a person's answer depends on the caller, and the browse API's cache on the URL only.
    personRoutes({ persons: createPersonsService(db), publicRegistryUrl: config.PUBLIC_REGISTRY_URL, curatorToken: config.CURATOR_TOKEN, tokenThrottle }),
    restApiRoutes({
      data: restApiData,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
      versions,
      answerCacheBytes: config.REGISTRY_CACHE_MAX_MB * 1024 * 1024,
    }),
    statisticsRoutes({ statistics }),
    schemaOrgRoutes({
      namespaces: createSchemaOrgService(db),
      publicResolverUrl: config.PUBLIC_RESOLVER_URL,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
    healthApiRoutes({ health: healthApi }),
    rorRoutes({ ror }),
    ...(validator ? [validationRoutes(validator, prefixCollisions)] : []),
    ...docsRoutes('registry', { serverUrl: config.PUBLIC_REGISTRY_URL, version: SERVICE_VERSION }),
  ]);
  return app;
}
