import { connectPostgres, connectRedis } from '../lib/connect.js';
import { listen } from '../http/server.js';
import { runPart } from '../lib/process-runner.js';
import { createResolverApp } from './app.js';
import { SnapshotStore } from './snapshot-store.js';

// `npm run start:resolver`: the resolver area alone, for operators who scale it separately.
await runPart('resolver', async (config, logger) => {
  const db = await connectPostgres(config, { max: 4 });
  const redis = await connectRedis(config);
  const registry = new SnapshotStore({ db, databaseUrl: config.DATABASE_URL, logger, checkIntervalMs: config.SNAPSHOT_CHECK_INTERVAL_MS });
  const started = performance.now();
  await registry.start();
  logger.info(
    { namespaces: registry.snapshot.namespacesByPrefix.size, version: registry.snapshot.version, ms: Math.round(performance.now() - started) },
    'registry snapshot loaded',
  );
  const app = createResolverApp({ config, db, redis, logger, registry });
  const server = await listen(app, config.RESOLVER_PORT, config);
  return {
    description: `resolver area on ${config.PUBLIC_RESOLVER_URL} (listening on ${config.HOST}:${server.port})`,
    stop: async () => {
      await server.close();
      await registry.stop();
      await db.destroy();
      redis.disconnect();
    },
  };
});
