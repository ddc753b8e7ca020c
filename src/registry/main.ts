import { connectPostgres, connectRedis } from '../lib/connect.js';
import { listen } from '../http/server.js';
import { runPart } from '../lib/process-runner.js';
import { createRegistryApp } from './app.js';

// `npm run start:registry`: the registry area alone, for operators who scale it separately.
await runPart('registry', async (config, logger) => {
  const db = await connectPostgres(config);
  const redis = await connectRedis(config);
  const app = createRegistryApp({ config, db, redis, logger });
  const server = await listen(app, config.REGISTRY_PORT, config);
  return {
    description: `registry area on ${config.PUBLIC_REGISTRY_URL} (listening on ${config.HOST}:${server.port})`,
    stop: async () => {
      await server.close();
      await db.destroy();
      redis.disconnect();
    },
  };
});
