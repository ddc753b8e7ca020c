import { Redis } from 'ioredis';
import { printableUrl, reasonOf } from '../lib/printable-url.js';
import { withTimeout } from '../lib/with-timeout.js';

/**
 * Connections for code that answers requests: fail fast when Redis is down instead of queueing commands
 * in memory while a client waits.
 */
export function createProducerRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 3000,
    lazyConnect: false,
  });
}

/** Connections for workers: BullMQ requires maxRetriesPerRequest null so they wait for Redis to return. */
export function createWorkerRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectTimeout: 5000 });
}

export function pingRedis(redis: Redis, timeoutMs = 2000): Promise<void> {
  return withTimeout(redis.ping().then(() => undefined), timeoutMs, 'Redis');
}

/** What a new user needs when Redis does not let the service start: where we looked and how to start it. */
export function redisUnreachableMessage(redisUrl: string, cause: unknown): string {
  return [
    `Cannot reach Redis at ${printableUrl(redisUrl)}: ${reasonOf(cause)}.`,
    'Start it with `docker compose up -d redis`, or with your system service',
    '(`sudo systemctl start redis-server`, or `redis-server --daemonize yes`),',
    'or point REDIS_URL at a running server.',
  ].join('\n');
}
