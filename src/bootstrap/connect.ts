import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { createDb, type Db } from '../db/knex.js';
import { primaryReads, replicaReads, type ReadDb } from '../db/read-db.js';
import type { Logger } from '../lib/logger.js';
import { createProducerRedis, pingRedis, redisUnreachableMessage, type RedisTarget } from '../queue/connections.js';
import { pingPostgres, postgresFailureMessage } from '../db/postgres-failure.js';
import { StartupError } from './process-runner.js';

/** Opens Postgres; fails start-up with a message naming the cause when it cannot. */
export async function connectPostgres(config: Pick<Config, 'DATABASE_URL'>, pool?: { min?: number; max?: number }): Promise<Db> {
  const db = createDb(config.DATABASE_URL, pool);
  try {
    await pingPostgres(db, 5000);
  } catch (error) {
    await db.destroy();
    throw new StartupError(postgresFailureMessage(config.DATABASE_URL, error));
  }
  return db;
}

/**
 * Where the bulk reads go: the replica of DATABASE_READ_URL when set (a second knex instance, checked at
 * start like the primary), else `primary` itself. Close it with closeReads.
 */
export async function connectReads(
  config: Pick<Config, 'DATABASE_READ_URL'>,
  primary: Db,
  logger: Logger,
  pool?: { min?: number; max?: number },
): Promise<ReadDb> {
  if (!config.DATABASE_READ_URL) return primaryReads(primary);
  let replica: Db;
  try {
    replica = await connectPostgres({ DATABASE_URL: config.DATABASE_READ_URL }, pool);
  } catch (error) {
    if (error instanceof StartupError) throw new StartupError(`The read replica (DATABASE_READ_URL): ${error.message}`);
    throw error;
  }
  return replicaReads(primary, replica, logger);
}

/** Closes the replica's connections, if there is one (the primary is closed by its owner). */
export async function closeReads(reads: ReadDb): Promise<void> {
  if (reads.separate) await reads.db.destroy();
}

export async function connectRedis(config: RedisTarget): Promise<Redis> {
  const redis = createProducerRedis(config);
  // Without a listener ioredis prints every reconnection failure as an unhandled error event.
  redis.on('error', () => undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      if (redis.status === 'ready') return resolve();
      const timer = setTimeout(() => reject(new Error('no answer within 5000 ms')), 5000);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      redis.once('error', (error: Error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    await pingRedis(redis);
  } catch (error) {
    redis.disconnect();
    throw new StartupError(redisUnreachableMessage(config, error));
  }
  return redis;
}
