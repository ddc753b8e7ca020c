import type { Redis } from 'ioredis';

/**
 * Deletes every Redis key under a BullMQ prefix (`<prefix>:*`: jobs, events, schedulers, cached verdicts),
 * with SCAN so that Redis is never blocked. For tearing down a deployment's, a test's or a benchmark's
 * queues; the prefix is what keeps them apart (QUEUE_PREFIX). Returns how many keys were deleted.
 */
export async function deleteQueueKeys(redis: Redis, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length > 0) deleted += await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  return deleted;
}
