import { Redis, type RedisOptions } from 'ioredis';
import type { Config } from '../config.js';
import { printableUrl, reasonOf } from '../lib/printable-url.js';
import { withTimeout } from '../lib/with-timeout.js';

/** Where Redis is: REDIS_URL alone, or the Sentinels that name the current primary. */
export type RedisTarget = Pick<Config, 'REDIS_URL'> & Partial<Pick<Config, 'REDIS_SENTINELS' | 'REDIS_SENTINEL_NAME'>>;

/**
 * With REDIS_SENTINELS, ioredis asks the Sentinels for the primary, and asks again when the connection
 * drops or the server it reaches says it is a replica now (a failover): no key and no setting changes. The
 * URL still gives the database number and the password. Every connection (BullMQ's duplicates included)
 * is made here, so every part follows a failover alike.
 *
 * ioredis's `failoverDetector` stays off. A dead primary drops its connections, and Sentinel's
 * reconfiguration of a demoted one kills its clients (CLIENT KILL), so every connection asks again anyway;
 * the detector adds nothing there and brings a race: its +switch-master notice, arriving while a reconnection
 * is asking the Sentinel, ends that client for good ("Connection is closed" on every command). Measured with
 * 300 clients on a busy machine: 31–76 left ended with the detector, none without.
 */
function targetOptions(target: string | RedisTarget): [string, RedisOptions] {
  if (typeof target === 'string') return [target, {}];
  if (!target.REDIS_SENTINELS) return [target.REDIS_URL, {}];
  const sentinels = target.REDIS_SENTINELS.split(',').map((entry) => {
    const at = entry.lastIndexOf(':');
    return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
  });
  return [target.REDIS_URL, { sentinels, name: target.REDIS_SENTINEL_NAME ?? 'mymaster' }];
}

/**
 * Connections for code that answers requests: fail fast when Redis is down instead of queueing commands
 * in memory while a client waits.
 */
export function createProducerRedis(target: string | RedisTarget): Redis {
  const [url, options] = targetOptions(target);
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    lazyConnect: false,
    ...options,
  });
}

/** Connections for workers: BullMQ requires maxRetriesPerRequest null so they wait for Redis to return. */
export function createWorkerRedis(target: string | RedisTarget): Redis {
  const [url, options] = targetOptions(target);
  return new Redis(url, { maxRetriesPerRequest: null, connectTimeout: 5000, ...options });
}

export function pingRedis(redis: Redis, timeoutMs = 2000): Promise<void> {
  return withTimeout(redis.ping().then(() => undefined), timeoutMs, 'Redis');
}

/** What a new user needs when Redis does not let the service start: where we looked and how to start it. */
export function redisUnreachableMessage(target: string | RedisTarget, cause: unknown): string {
  if (typeof target !== 'string' && target.REDIS_SENTINELS) {
    return [
      `Cannot reach the Redis primary "${target.REDIS_SENTINEL_NAME ?? 'mymaster'}" through the Sentinels ${target.REDIS_SENTINELS}: ${reasonOf(cause)}.`,
      'Check that the Sentinels run and monitor a primary of that name (REDIS_SENTINEL_NAME),',
      'or empty REDIS_SENTINELS to use REDIS_URL directly.',
    ].join('\n');
  }
  const redisUrl = typeof target === 'string' ? target : target.REDIS_URL;
  return [
    `Cannot reach Redis at ${printableUrl(redisUrl)}: ${reasonOf(cause)}.`,
    'Start it with `docker compose up -d redis`, or with your system service',
    '(`sudo systemctl start redis-server`, or `redis-server --daemonize yes`),',
    'or point REDIS_URL at a running server.',
  ].join('\n');
}
