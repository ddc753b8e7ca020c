import type { Redis } from 'ioredis';
import { usageKeys } from '../../src/statistics/usage-keys.js';

/**
 * Deletes the usage counters of `days` and the satellite batch ids (satellite-usage.ts). Usage keys are the
 * deployment's, keyed by day rather than by queue prefix: a test that counted usage (a resolver's, a
 * satellite's through its upstream) removes them itself once the processes that count have stopped.
 */
export async function deleteUsageKeys(redis: Redis, days: Iterable<string>): Promise<void> {
  for (const day of days) {
    const prefixes = await redis.smembers(usageKeys.prefixes(day));
    await redis.del(usageKeys.visits(day), usageKeys.prefixes(day), ...prefixes.map((p) => usageKeys.visitors(day, p)));
    await redis.srem(usageKeys.days, day);
  }
  const batches = await redis.keys('usage:satellite-batch:*');
  if (batches.length > 0) await redis.del(...batches);
}
