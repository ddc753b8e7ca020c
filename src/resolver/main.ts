import { connectPostgres, connectRedis } from '../lib/connect.js';
import { listen } from '../http/server.js';
import { runPart } from '../lib/process-runner.js';
import { createResolverApp } from './app.js';

// `npm run start:resolver`: the resolver area alone, for operators who scale it separately.
await runPart('resolver', async (config, logger) => {
  const db = await connectPostgres(config, { max: 4 });
  const redis = await connectRedis(config);
  const app = createResolverApp({ config, db, redis, logger });
  const server = await listen(app, config.RESOLVER_PORT, config);
  return {
    description: `resolver area on ${config.PUBLIC_RESOLVER_URL} (listening on ${config.HOST}:${server.port})`,
    stop: async () => {
      await server.close();
      await db.destroy();
      redis.disconnect();
    },
  };
});
