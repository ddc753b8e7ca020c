import { Redis } from 'ioredis';
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

/** Deletes the usage counters of the given days (what the benchmark's resolvers wrote), nothing else. */
export async function clearUsageCounters(redisUrl: string, days: string[]): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  try {
    for (const day of new Set(days)) {
      const prefixes = await redis.smembers(usageKeys.prefixes(day));
      const keys = [usageKeys.visits(day), usageKeys.prefixes(day), ...prefixes.map((p) => usageKeys.visitors(day, p))];
      for (let i = 0; i < keys.length; i += 10_000) await redis.del(...keys.slice(i, i + 10_000));
      await redis.srem(usageKeys.days, day);
    }
  } finally {
    redis.disconnect();
  }
}
