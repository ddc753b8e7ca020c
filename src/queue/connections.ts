import { Redis } from 'ioredis';

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
