import { Redis } from 'ioredis';

/**
 * Deletes the Redis keys under the BullMQ prefix of the area under test. The prefix carries the
 * benchmark's process id: only keys this run's area could have written match it.
 */
export async function removeQueueKeys(redisUrl: string, queuePrefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  let removed = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) removed += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return removed;
}
