import type Koa from 'koa';
import { Registry } from 'prom-client';
import { createBaseApp, useRouters } from '../http/base-app.js';
import { clientAddressFromSetting, trustsProxies } from '../http/client-address.js';
import { parseOrigins } from '../http/cors.js';
import { meteredFamilyOf } from '../http/metrics-middleware.js';
import { limitRequests } from '../http/rate-limit-middleware.js';
import { pingPostgres } from '../db/postgres-failure.js';
import { HttpMeter } from '../metrics/http-meter.js';
import { REGISTRY_FAMILIES } from '../metrics/route-families.js';
import { docsRoutes } from '../openapi/docs.routes.js';
import { SERVICE_VERSION } from '../openapi/openapi-document.js';
import { pingRedis } from '../queue/connections.js';
import { htmlErrorPage } from '../web/error-page.js';
import type { Site } from '../web/site.js';
import { mountChanges } from './changes/mount.js';
import { mountCurationWarnings } from './curation-warnings/mount.js';
import { mountCuration } from './curation/mount.js';
import { mountCuratorDesk } from './curator-desk/mount.js';
import { mountDataset } from './dataset/mount.js';
import { mountEmbed } from './embed/mount.js';
import { mountHealthApi } from './health-api/mount.js';
import { mountMaintenance } from './maintenance/mount.js';
import { isSignedInAtDesk } from './model/desk-auth.js';
import { mountPages } from './pages/mount.js';
import { mountQueueBoard } from './queue-board/mount.js';
import { mountRegistration } from './registration/mount.js';
import { registryFamilyOf } from './registry-rate-limits.js';
import { mountRestApi } from './rest-api/mount.js';
import { mountSatellite } from './satellite/mount.js';
import { mountSchemaOrg } from './schema-org/mount.js';
import { mountSearch } from './search/mount.js';
import { mountSparql } from './sparql/mount.js';
import { createRegistryServices, registrySite, type RegistryAppDeps } from './services.js';
import { mountStatistics } from './statistics/mount.js';
import { mountSynonyms } from './synonyms/mount.js';

export type { RegistryAppDeps } from './services.js';

/**
 * The registry area: each feature mounts its routes on the app, in this order (a router ahead of another
 * answers first the paths they share), given the shared services of services.ts; the routes never query the
 * database themselves.
 */
export function createRegistryApp(deps: RegistryAppDeps): Koa {
  const { config } = deps;
  const site = registrySite(config);
  const metrics = deps.metrics ?? new Registry();
  const app = createRegistryBaseApp(deps, site, metrics);
  const { limits, area } = createRegistryServices(deps, site, metrics);
  app.use(limitRequests(limits, registryFamilyOf, { advertise: true, curatorRequest: (ctx) => isSignedInAtDesk(ctx, area.sessions) }));
  mountQueueBoard(app, area);
  useRouters(app, [site.assets.routes()]);
  mountSearch(app, area);
  mountPages(app, area);
  mountEmbed(app, area);
  mountDataset(app, area);
  mountSynonyms(app, area);
  mountChanges(app, area);
  mountSatellite(app, area);
  // The curators' writes, the submissions and the desk: ahead of /restApi, whose router answers only reads
  // from a shared answer cache.
  mountMaintenance(app, area);
  mountCurationWarnings(app, area);
  mountCuration(app, area);
  mountRegistration(app, area);
  mountCuratorDesk(app, area);
  mountRestApi(app, area);
  mountStatistics(app, area);
  mountSchemaOrg(app, area);
  mountHealthApi(app, area);
  if (deps.sparql) mountSparql(app, area, deps.sparql);
  useRouters(app, docsRoutes('registry', { serverUrl: config.PUBLIC_REGISTRY_URL, version: SERVICE_VERSION }));
  return app;
}

/** The area's Koa app: the shared middleware of http/base-app.ts with the registry's CORS, checks, error page and metrics. */
function createRegistryBaseApp(deps: RegistryAppDeps, site: Site, metrics: Registry): Koa {
  const { config, db } = deps;
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
  return app;
}
