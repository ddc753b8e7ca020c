import { warmUp } from '../lib/warm-up.js';
import { closeReads, connectPostgres, connectReads, connectRedis } from '../bootstrap/connect.js';
import { listen } from '../http/server.js';
import type { PartStarter, StartedPart } from '../bootstrap/process-runner.js';
import { createResolverApp } from './app.js';
import { MetadataFetches } from './metadata-fetches.js';
import { SnapshotStore } from './snapshot-store.js';
import { usageHashKey } from '../db/service-settings.js';
import { UsageRecorder } from '../statistics/usage-recorder.js';
import { serveMetrics } from '../metrics/metrics-server.js';
import { createProcessRegistry } from '../metrics/process-registry.js';
import { ResolverMetrics } from '../metrics/resolver-metrics.js';

/** Starts the resolver area (its entry, main.ts, loads this module once its arguments and settings are good). */
export const startResolver: PartStarter = async (config, logger): Promise<StartedPart> => {
  const db = await connectPostgres(config, { max: 4 });
  // The snapshot loads are the resolver's only bulk reads: from the replica when there is one.
  const reads = await connectReads(config, db, logger, { max: 2 });
  const redis = await connectRedis(config);
  const metrics = new ResolverMetrics(createProcessRegistry());
  const registry = new SnapshotStore({
    db,
    reads,
    databaseUrl: config.DATABASE_URL,
    logger,
    checkIntervalMs: config.SNAPSHOT_CHECK_INTERVAL_MS,
    onChangeApplied: metrics.changeApplied,
  });
  const started = performance.now();
  await registry.start();
  logger.info(
    { namespaces: registry.snapshot.namespacesByPrefix.size, version: registry.snapshot.version, ms: Math.round(performance.now() - started) },
    'registry snapshot loaded',
  );
  const usage = config.USAGE_COUNTING ? new UsageRecorder(redis, await usageHashKey(db), logger, config.USAGE_FLUSH_INTERVAL_MS) : undefined;
  usage?.start();
  const metadataFetches = new MetadataFetches({
    connection: redis,
    prefix: config.QUEUE_PREFIX,
    waitMs: config.METADATA_WAIT_MS,
    keepSeconds: config.METADATA_ERROR_CACHE_SECONDS,
    logger,
  });
  const app = createResolverApp({ config, db, redis, logger, registry, usage, metrics, metadataFetches });
  // What the area's features load on first use (the ReDoS checker, got, ...) is loaded before the first
  // request, not on it (lib/warm-up.ts).
  await warmUp();
  const server = await listen(app, config.RESOLVER_PORT, config);
  const metricsServer =
    config.RESOLVER_METRICS_PORT === 0
      ? undefined
      : await serveMetrics(metrics.registry, { host: config.HOST, port: config.RESOLVER_METRICS_PORT, token: config.METRICS_TOKEN, logger });
  const metricsAt = metricsServer ? `, metrics on ${config.HOST}:${metricsServer.port}` : '';
  return {
    description: `resolver area on ${config.PUBLIC_RESOLVER_URL} (listening on ${config.HOST}:${server.port}${metricsAt})`,
    stop: async () => {
      await server.close();
      await metricsServer?.close();
      await metadataFetches.close();
      await usage?.stop();
      await registry.stop();
      await closeReads(reads);
      await db.destroy();
      redis.disconnect();
    },
  };
};
