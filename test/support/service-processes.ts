/**
 * The service's own processes (npm test builds dist/ first) on a test stack (areas.ts): its database, Redis,
 * QUEUE_PREFIX, DATASET_DIR and public URLs, so that their queue keys and files go at the stack's close().
 * Stop them (stopProcess) before that.
 */
import { QueueEvents, type Queue } from 'bullmq';
import { createWorkerRedis } from '../../src/queue/connections.js';
import { createQueue, type QueueName } from '../../src/queue/queues.js';
import type { AreaStack } from './areas.js';
import { freePort, spawnNode, type Spawned } from './processes.js';
import { TEST_REDIS_URL } from './test-database.js';
import { waitFor } from './wait.js';

type Stack = Pick<AreaStack, 'url' | 'config'>;

const stackEnv = (on: Stack): Record<string, string> => ({
  DATABASE_URL: on.url,
  REDIS_URL: on.config.REDIS_URL,
  QUEUE_PREFIX: on.config.QUEUE_PREFIX,
  DATASET_DIR: on.config.DATASET_DIR,
  PUBLIC_RESOLVER_URL: on.config.PUBLIC_RESOLVER_URL,
  PUBLIC_REGISTRY_URL: on.config.PUBLIC_REGISTRY_URL,
  LOG_LEVEL: 'warn',
  // Tests never reach the real ROR API.
  ROR_API_URL: on.config.ROR_API_URL,
  RATE_LIMITS: String(on.config.RATE_LIMITS),
});

/** A worker process (dist/workers/main.js); `env` adds or replaces settings. */
export function spawnWorker(on: Stack, env: Record<string, string> = {}): Spawned {
  return spawnNode('dist/workers/main.js', { ...stackEnv(on), ...env });
}

/**
 * `npm run start:cluster` (dist/src/cluster.js) on the stack: it runs the instances and HAProxy as children
 * of its own and stops them all on SIGTERM (stopProcess). `env` gives the ports and other settings.
 */
export function spawnCluster(on: Stack, env: Record<string, string>): Spawned {
  return spawnNode('dist/src/cluster.js', { ...stackEnv(on), ...env });
}

/** Waits until `count` workers take jobs from the queue `name` under `prefix` on `redisUrl`. */
export async function waitForQueueWorkers(name: QueueName, count: number, on: { redisUrl: string; prefix: string }): Promise<void> {
  const connection = createWorkerRedis(on.redisUrl);
  connection.on('error', () => undefined);
  const queue = createQueue(name, connection, on.prefix);
  try {
    await waitFor(async () => (await queue.getWorkersCount()) >= count, { timeoutMs: 30_000, what: `${count} ${name} workers connecting` });
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** Adds a job named 'manual' to `queue` and waits (30 s at most) for a worker process to finish it. */
export async function runJob<Data>(queue: Queue<Data>, data: NoInfer<Data>): Promise<{ id: string; result: unknown }> {
  // BullMQ leaves a connection it was handed open on close(): this one is closed here, or jest cannot exit.
  const connection = createWorkerRedis(TEST_REDIS_URL);
  const events = new QueueEvents(queue.name, { connection, prefix: queue.opts.prefix });
  try {
    await events.waitUntilReady();
    const job = await (queue as unknown as Queue).add('manual', data);
    return { id: job.id!, result: await job.waitUntilFinished(events, 30_000) };
  } finally {
    await events.close();
    connection.disconnect();
  }
}

export interface AreaProcess extends Spawned {
  port: number;
  /** http://127.0.0.1:<port> */
  base: string;
}

/**
 * An area's own entry point (dist/src/<area>/main.js: cli.js would run it as a grandchild that a kill
 * misses) listening on 127.0.0.1 at a free port, once `readyPath` answers 200. The resolver counts no usage
 * (its counters are keyed by day, not by queue prefix, and would be left in Redis).
 */
export async function startAreaProcess(
  area: 'resolver' | 'registry',
  on: Stack,
  env: Record<string, string> = {},
  options: { readyPath?: '/health/live' | '/health/ready'; nodeArgs?: string[] } = {},
): Promise<AreaProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const own: Record<string, string> = area === 'resolver' ? { RESOLVER_PORT: String(port), USAGE_COUNTING: 'false' } : { REGISTRY_PORT: String(port) };
  const spawned = spawnNode(`dist/src/${area}/main.js`, { ...stackEnv(on), HOST: '127.0.0.1', ...own, ...env }, [], options.nodeArgs);
  const readyPath = options.readyPath ?? '/health/ready';
  // A process that died says so at once, with its output; one still starting may take long on a busy machine
  // (loading the real registry, checking its patterns), hence a deadline far beyond a quiet start's seconds.
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void spawned.exited.then((how) => (exit = how));
  const ready = async () => {
    if (exit) return { exit };
    return (await fetch(`${base}${readyPath}`)).status === 200 ? { exit: undefined } : false;
  };
  const outcome = await waitFor(ready, { timeoutMs: 90_000, what: `the ${area} area starting` });
  if (outcome.exit) throw new Error(`the ${area} area exited (${outcome.exit.signal ?? `code ${outcome.exit.code}`}) before it was ready:\n${spawned.output().slice(-3000)}`);
  return { ...spawned, port, base };
}
