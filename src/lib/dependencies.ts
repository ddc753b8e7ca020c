import type { Redis } from 'ioredis';
import type { Db } from '../db/knex.js';

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function pingPostgres(db: Db, timeoutMs = 2000): Promise<void> {
  return withTimeout(db.raw('SELECT 1').then(() => undefined), timeoutMs, 'Postgres');
}

export function pingRedis(redis: Redis, timeoutMs = 2000): Promise<void> {
  return withTimeout(redis.ping().then(() => undefined), timeoutMs, 'Redis');
}

function where(url: string): string {
  const parsed = new URL(url);
  parsed.password = parsed.password ? '***' : '';
  return parsed.toString();
}

/** What a new user needs when a dependency is missing: which one, where we looked, how to start it. */
export function postgresUnreachableMessage(databaseUrl: string, cause: unknown): string {
  return [
    `Cannot reach PostgreSQL at ${where(databaseUrl)}: ${(cause as Error).message || String(cause)}.`,
    'Start it with `docker compose up -d postgres`, or with your system service',
    '(`sudo systemctl start postgresql`, or `pg_ctlcluster <version> main start` on Debian),',
    'or point DATABASE_URL at a running server.',
  ].join('\n');
}

export function redisUnreachableMessage(redisUrl: string, cause: unknown): string {
  return [
    `Cannot reach Redis at ${where(redisUrl)}: ${(cause as Error).message || String(cause)}.`,
    'Start it with `docker compose up -d redis`, or with your system service',
    '(`sudo systemctl start redis-server`, or `redis-server --daemonize yes`),',
    'or point REDIS_URL at a running server.',
  ].join('\n');
}
