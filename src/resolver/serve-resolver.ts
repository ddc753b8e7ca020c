import { closeReads, connectPostgres, connectReads, connectRedis } from '../bootstrap/connect.js';
import { listenArea } from '../bootstrap/listen-area.js';
import type { PartStarter, StartedPart } from '../bootstrap/process-runner.js';
import { createResolverApp } from './app.js';
import { MetadataFetches } from './metadata-fetches.js';
import { SnapshotStore } from './snapshot-store.js';
import { usageHashKey } from '../db/service-settings.js';
import { UsageRecorder } from '../statistics/usage-recorder.js';
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
  const area = await listenArea(app, { port: config.RESOLVER_PORT, metricsPort: config.RESOLVER_METRICS_PORT }, metrics.registry, config, logger);
  return {
    description: `resolver area on ${config.PUBLIC_RESOLVER_URL} (${area.listening})`,
    stop: async () => {
      await area.close();
      await metadataFetches.close();
      await usage?.stop();
      await registry.stop();
      await closeReads(reads);
      await db.destroy();
      redis.disconnect();
    },
  };
};
