import { Redis } from 'ioredis';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { usageKeys } from '../../src/statistics/usage-keys.js';

/**
 * The resolver under test counts usage (on by default) into Redis. It gets a Redis database of its own, so
 * that benchmark traffic never lands in the day counters of a service running against the default one.
 */
export function redisUrlFor(baseUrl: string, database: number): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A short-lived connection for cleaning up after a run; a Redis that is gone fails the call, not the process. */
async function withRedis<T>(redisUrl: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * Deletes the keys under the BullMQ prefix of the areas under test. The benchmarks' prefixes carry their
 * process id: only keys this run's areas could have written match.
 */
export function removeQueueKeys(redisUrl: string, queuePrefix: string): Promise<number> {
  return withRedis(redisUrl, (redis) => deleteQueueKeys(redis, queuePrefix));
}

/** Deletes the usage counters of the given days (what the benchmark's resolvers wrote), nothing else. */
export function clearUsageCounters(redisUrl: string, days: string[]): Promise<void> {
  return withRedis(redisUrl, async (redis) => {
    for (const day of new Set(days)) {
      const prefixes = await redis.smembers(usageKeys.prefixes(day));
      const keys = [usageKeys.visits(day), usageKeys.prefixes(day), ...prefixes.map((p) => usageKeys.visitors(day, p))];
      for (let i = 0; i < keys.length; i += 10_000) await redis.del(...keys.slice(i, i + 10_000));
      await redis.srem(usageKeys.days, day);
    }
  });
}
