import type { Config } from '../config.js';
import { ensureDatabase } from '../db/ensure-database.js';
import { migrateToLatest } from '../db/knex.js';
import { postgresFailureMessage } from '../db/postgres-failure.js';
import { seedSampleRegistryIfEmpty } from '../importer/seed-sample.js';
import { createLogger } from '../lib/logger.js';
import { connectPostgres, connectRedis } from './connect.js';
import { StartupError } from './process-runner.js';

/**
 * What `npm start` and `npm run start:cluster` do once before starting any part: create the database when
 * missing, migrate it, load the sample registry when it is empty (SEED_SAMPLE_REGISTRY), and check that
 * Redis answers, so that a wrong setting stops here with one message rather than in every part.
 */
export async function prepareDatabase(config: Readonly<Config>): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL, 'start');
  try {
    if (await ensureDatabase(config.DATABASE_URL)) logger.info('created the database');
  } catch (error) {
    throw new StartupError(postgresFailureMessage(config.DATABASE_URL, error));
  }
  const db = await connectPostgres(config, { max: 2 });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) logger.info({ applied }, 'migrated the database');
    if (config.SEED_SAMPLE_REGISTRY) {
      const seeded = await seedSampleRegistryIfEmpty(db);
      if (seeded.loaded) logger.info(`the registry was empty: loaded the sample registry (${seeded.loaded} namespaces)`);
      if (seeded.verdictsNotKept) logger.warn(`kept no ReDoS verdict of the sample's LUI patterns (${seeded.verdictsNotKept}); the resolvers check them as they start`);
    }
  } finally {
    await db.destroy();
  }
  const redis = await connectRedis(config);
  redis.disconnect();
}
