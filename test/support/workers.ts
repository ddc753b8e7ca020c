import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue } from '../../src/queue/queues.js';
import type { AreaStack } from './areas.js';
import { spawnNode, type Spawned } from './processes.js';
import { waitFor } from './wait.js';

/**
 * A compiled worker process (npm test builds first) on the stack's database, Redis, QUEUE_PREFIX and
 * DATASET_DIR, logging warnings; `env` adds or replaces settings.
 */
export function spawnWorker(on: Pick<AreaStack, 'url' | 'config'>, env: Record<string, string> = {}): Spawned {
  return spawnNode('dist/workers/main.js', {
    DATABASE_URL: on.url,
    REDIS_URL: on.config.REDIS_URL,
    QUEUE_PREFIX: on.config.QUEUE_PREFIX,
    DATASET_DIR: on.config.DATASET_DIR,
    LOG_LEVEL: 'warn',
    ...env,
  });
}

/** Waits until `count` workers take jobs from the queue `name` under `prefix` on `redisUrl`. */
export async function waitForQueueWorkers(name: string, count: number, on: { redisUrl: string; prefix: string }, what = `${count} ${name} workers connecting`): Promise<void> {
  const connection = createWorkerRedis(on.redisUrl);
  connection.on('error', () => undefined);
  const queue = createQueue(name, connection, on.prefix);
  try {
    await waitFor(async () => (await queue.getWorkersCount()) >= count, { timeoutMs: 30_000, what });
  } finally {
    await queue.close();
    connection.disconnect();
  }
}
