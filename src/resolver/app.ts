import type Koa from 'koa';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Db } from '../db/knex.js';
import { createBaseApp, useRouters } from '../http/base-app.js';
import { clientAddressFromSetting, trustsProxies } from '../http/client-address.js';
import { limitRequests } from '../http/rate-limit-middleware.js';
import type { DependencyCheck, ReadinessPolicy } from '../http/health.js';
import { pingPostgres } from '../db/postgres-failure.js';
import { pingRedis } from '../queue/connections.js';
import { DOCS_PATHS, docsRoutes } from '../openapi/docs.routes.js';
import { SERVICE_VERSION } from '../openapi/openapi-document.js';
import type { Logger } from '../lib/logger.js';
import { meteredFamilyOf } from '../http/metrics-middleware.js';
import { KoaPaths } from '../http/koa-paths.js';
import { HEAD_AND_GET } from '../http/unserved-methods.js';
import { METRICS_PATH } from '../metrics/scrape.js';
import { Registry } from 'prom-client';
import { ResolverMetrics, type UsageFlushReading } from '../metrics/resolver-metrics.js';
import { BATCH_PATHS, batchRoutes } from './batch.routes.js';
import { createFrontHandler } from './front-handler.js';
import { HeavyWork } from './heavy-work.js';
import { INSIGHT_PATHS, insightRoutes } from './insight.routes.js';
import { MCP_PATHS, mcpRoutes } from './mcp.routes.js';
import { MetadataFetches } from './metadata-fetches.js';
import { METADATA_PATHS, metadataRoutes, metadataUnserved } from './metadata.routes.js';
import { createMcpTools } from './mcp-tools.js';
import { readNamespaceDescription } from '../db/namespace-description.js';
import { REGISTRY_LINK_PATHS, registryLinksRoutes } from './registry-links.routes.js';
import { ResolutionCaching } from './resolution-caching.js';
import { resolverFamilyOf, resolverRateLimits } from './resolver-rate-limits.js';
import { REVERSE_PATHS, reverseLookups } from './reverse.routes.js';
import { resolverHomeRoutes } from './resolver-home.routes.js';
import { RESOLVER_ASSET_PATHS, resolverAssetRoutes, resolverSite } from './resolver-site.js';
import type { SnapshotSource } from './snapshot-source.js';
import type { NamespaceEntry } from '../core/registry-snapshot.js';

/** What counts resolutions: the usage recorder (Redis), or a satellite's batches to its upstream. */
export interface UsageCounter extends UsageFlushReading {
  record(prefix: string, address: string, userAgent: string): void;
}

export interface ResolverAppDeps {
  config: Readonly<Config>;
  /** Absent for a satellite resolver (satellite/), which has no Postgres: its MCP tools describe namespaces without it. */
  db?: Db;
  /** Absent for a satellite resolver, which has no Redis. */
  redis?: Redis;
  logger: Logger;
  registry: SnapshotSource;
  /** Usage counting; absent when USAGE_COUNTING is off. */
  usage?: UsageCounter;
  /** Dependencies /health/ready checks besides Postgres and Redis (a satellite's upstream). */
  checks?: DependencyCheck[];
  /** Where the MCP tools read a namespace's description when there is no Postgres (a satellite asks its upstream). */
  readDescription?: (namespace: NamespaceEntry) => Promise<string | null>;
  /**
   * The process's metrics (main.ts: its registry with the process metrics, and the snapshot store's lag
   * observer); a registry of the app's own without.
   */
  metrics?: ResolverMetrics;
  /**
   * Provider metadata lookups (main.ts makes them, to close them at stop); the app makes its own on `redis`
   * without.
   */
  metadataFetches?: MetadataFetches;
}

/**
 * The resolver keeps serving from its snapshot when Postgres or Redis is down, so a failing dependency
 * makes it degraded (200, with the reason), never unavailable.
 */
function resolverReadiness(registry: SnapshotSource): ReadinessPolicy {
  return (failures, checks) => {
    const reasons = Object.entries(failures).map(([name, reason]) => `${name}: ${reason}`);
    if (registry.staleReason) reasons.push(registry.staleReason);
    if (reasons.length === 0) return { status: 'ok', checks };
    return { status: 'degraded', reason: `serving registry snapshot version ${registry.snapshot.version}; ${reasons.join('; ')}`, checks };
  };
}

/**
 * Every path the resolver's Koa application answers, each declared by the module mounted for it below
 * (the root: a page for a browser, the base app's 404 for any other client; and the base app's own: the
 * health checks, /metrics, which keeps a compact identifier's HEAD and GET in its Allow). The front handler hands these to Koa and reads every other GET
 * or HEAD path as a compact identifier; resolver-routing-table.test.ts checks that every mounted route is here.
 */
const KOA_PATHS = new KoaPaths([
  { path: '/' },
  { path: '/health/', under: true },
  { path: METRICS_PATH, methods: HEAD_AND_GET },
  ...REGISTRY_LINK_PATHS,
  ...REVERSE_PATHS,
  ...BATCH_PATHS,
  ...INSIGHT_PATHS,
  ...DOCS_PATHS,
  ...MCP_PATHS,
  ...METADATA_PATHS,
  ...RESOLVER_ASSET_PATHS,
]);

/** The resolver area: resolution, redirects, MIR ids, reverse lookup, batches and the insight API. */
export function createResolverApp(deps: ResolverAppDeps): Koa {
  const { config, registry } = deps;
  const snapshot = () => registry.snapshot;
  const urls = { publicResolverUrl: config.PUBLIC_RESOLVER_URL, publicRegistryUrl: config.PUBLIC_REGISTRY_URL };
  const site = resolverSite(urls);
  const usage = deps.usage;
  const count = usage ? (prefix: string, address: string, userAgent: string) => usage.record(prefix, address, userAgent) : undefined;
  const heavy = new HeavyWork({
    perClient: config.RESOLVER_HEAVY_REQUESTS_PER_CLIENT,
    onError: (error) => deps.logger.error({ err: error }, 'heavy request work failed'),
  });
  const clientAddress = clientAddressFromSetting(config.TRUST_PROXY);
  const metrics = deps.metrics ?? new ResolverMetrics(new Registry());
  metrics.watch(registry, usage);
  const limits = resolverRateLimits(config, (error) => deps.logger.error({ err: error }, 'rate limit counter failed; request let through'));
  const reverse = reverseLookups({
    registry,
    publicResolverUrl: config.PUBLIC_RESOLVER_URL,
    heavy,
    logger: deps.logger,
    clientAddress,
  });
  const app = createBaseApp({
    logger: deps.logger,
    logSampleRate: config.LOG_REQUEST_SAMPLE_RATE,
    corsMethods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    checks: [
      ...(deps.db ? [{ name: 'postgres', check: () => pingPostgres(deps.db!) }] : []),
      ...(deps.redis ? [{ name: 'redis', check: () => pingRedis(deps.redis!) }] : []),
      ...(deps.checks ?? []),
    ],
    readinessPolicy: resolverReadiness(registry),
    servedMethods: (path) => KOA_PATHS.methodsAt(path),
    clientAddress,
    metrics: {
      registry: metrics.registry,
      meter: metrics.meter,
      familyOf: meteredFamilyOf(resolverFamilyOf),
      token: config.METRICS_TOKEN,
      onAreaPort: config.RESOLVER_METRICS_PORT === 0,
    },
    front: createFrontHandler({
      snapshot,
      failingProviders: () => registry.failingProviders,
      reverse,
      ...urls,
      logger: deps.logger,
      logSampleRate: config.LOG_REQUEST_SAMPLE_RATE,
      clientAddress,
      count,
      heavy,
      limits,
      caching: new ResolutionCaching({
        maxAgeSeconds: config.RESOLVER_CACHE_MAX_AGE,
        errorMaxAgeSeconds: config.RESOLVER_ERROR_CACHE_MAX_AGE,
        deployment: [config.PUBLIC_RESOLVER_URL, config.PUBLIC_REGISTRY_URL],
      }),
      rankingTag: () => registry.rankingTag,
      meter: metrics.meter,
      koaPaths: KOA_PATHS,
      site,
    }),
  });
  // X-Forwarded-Proto and -Host; the client address is clientAddress's (ctx.ip).
  app.proxy = trustsProxies(config.TRUST_PROXY);
  // Ahead of every route: a refused batch is not read. Only refusals carry the RateLimit fields here, as on
  // the front handler's hot path.
  app.use(limitRequests(limits, resolverFamilyOf, { advertise: false }));
  app.use(registryLinksRoutes({ snapshot, publicRegistryUrl: config.PUBLIC_REGISTRY_URL, site }));
  // The metadata service's pages are fetched by worker jobs: an area without Redis (a satellite) has none to
  // ask, and leaves /metadataApi to its upstream's resolvers.
  const metadataFetches =
    deps.metadataFetches ??
    (deps.redis &&
      new MetadataFetches({
        connection: deps.redis,
        prefix: config.QUEUE_PREFIX,
        waitMs: config.METADATA_WAIT_MS,
        keepSeconds: config.METADATA_ERROR_CACHE_SECONDS,
        logger: deps.logger,
      }));
  if (metadataFetches) {
    app.use(
      metadataRoutes({
        snapshot,
        failingProviders: () => registry.failingProviders,
        publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
        lookup: (url) => metadataFetches.lookup(url),
        cacheSeconds: config.METADATA_CACHE_SECONDS,
      }),
    );
  } else {
    app.use(metadataUnserved());
  }
  app.use(reverse.wrongMethod);
  useRouters(app, [
    resolverHomeRoutes({ site, snapshot }),
    resolverAssetRoutes(site),
    reverse.router,
    batchRoutes({ registry, ...urls, count, heavy, logger: deps.logger }),
    insightRoutes({ registry }),
    ...docsRoutes('resolver', { serverUrl: config.PUBLIC_RESOLVER_URL, version: SERVICE_VERSION }),
  ]);
  if (config.RESOLVER_MCP) {
    const tools = createMcpTools({
      registry,
      ...urls,
      reverseIndex: reverse.index,
      heavy,
      count,
      // The one read of the MCP tools outside the snapshot; without Postgres a namespace is described without it.
      readDescription: (namespace) =>
        !deps.db ? (deps.readDescription?.(namespace) ?? Promise.resolve(null)) : readNamespaceDescription(deps.db, namespace.id).catch((error: unknown) => {
          deps.logger.warn({ err: error }, 'namespace description unreadable; described without it');
          return null;
        }),
    });
    useRouters(app, [mcpRoutes({ tools, heavy, logger: deps.logger })]);
  }
  return app;
}
