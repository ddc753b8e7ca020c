/**
 * The nightly usage rollup at scale: one day of counters for N namespaces written into a Redis database of
 * the benchmark's own (as the resolvers write them: a visits hash, the day's prefix set, a HyperLogLog per
 * prefix), then rollUpUsage for that day, timed, and its rows checked in usage_daily.
 */
import { Redis } from 'ioredis';
import { createDb } from '../../src/db/knex.js';
import { rollUpUsage } from '../../src/statistics/usage-rollup.js';
import { usageKeys } from '../../src/statistics/usage-keys.js';

export interface RollupFigures {
  day: string;
  prefixes: number;
  visits: number;
  /** Sum of the distinct visitors written per prefix (1–5 each). */
  visitors: number;
  /**
   * Sum of Redis's own PFCOUNT of every prefix's HyperLogLog, which the rollup copies: a HyperLogLog is an
   * estimate, and two of a prefix's few visitors may fall into one register (a few in thousands do).
   */
  estimatedVisitors: number;
  fillMs: number;
  rollupMs: number;
  /** A second rollup of the same day (the rows exist: upserts), to show it is idempotent. */
  rerunMs: number;
  rows: number;
  rowVisits: number;
  rowVisitors: number;
  rowsWithHll: number;
  /** True when rows, visits and visitors in usage_daily are exactly what was written, after both runs. */
  verified: boolean;
}

const FILL_BATCH = 5000;
const DELETE_BATCH = 10_000;

function connect(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 3000 });
  redis.on('error', () => undefined);
  return redis;
}

/** Deletes every key the fill writes, and the day's membership of the day sets (nothing else). */
export async function removeRollupCounters(redisUrl: string, day: string, prefixes: readonly string[]): Promise<void> {
  const redis = connect(redisUrl);
  try {
    await removeDay(redis, day, prefixes);
  } finally {
    redis.disconnect();
  }
}

async function removeDay(redis: Redis, day: string, prefixes: readonly string[]): Promise<void> {
  const keys = [usageKeys.visits(day), usageKeys.prefixes(day), ...prefixes.map((p) => usageKeys.visitors(day, p))];
  for (let i = 0; i < keys.length; i += DELETE_BATCH) await redis.del(...keys.slice(i, i + DELETE_BATCH));
  await redis.srem(usageKeys.days, day);
  await redis.srem(usageKeys.rolledUp, day);
}

/** The distinct visitors and the visits written for the i-th prefix. */
const visitorsOf = (i: number) => 1 + (i % 5);
const visitsOf = (i: number) => visitorsOf(i) + (i % 97);

async function fill(redis: Redis, day: string, prefixes: readonly string[]): Promise<{ visits: number; visitors: number }> {
  let visits = 0;
  let visitors = 0;
  for (let start = 0; start < prefixes.length; start += FILL_BATCH) {
    const slice = prefixes.slice(start, start + FILL_BATCH);
    const pipeline = redis.pipeline();
    const counts: Record<string, number> = {};
    slice.forEach((prefix, j) => {
      const i = start + j;
      const v = visitsOf(i);
      const distinct = visitorsOf(i);
      counts[prefix] = v;
      visits += v;
      visitors += distinct;
      pipeline.pfadd(usageKeys.visitors(day, prefix), ...Array.from({ length: distinct }, (_, k) => `visitor-${(i * 7 + k) % 100_003}`));
    });
    pipeline.hset(usageKeys.visits(day), counts);
    pipeline.sadd(usageKeys.prefixes(day), ...slice);
    const answers = (await pipeline.exec()) ?? [];
    const failed = answers.find(([error]) => error);
    if (failed) throw failed[0]!;
  }
  await redis.sadd(usageKeys.days, day);
  return { visits, visitors };
}

/** Sum of PFCOUNT over the day's HyperLogLogs (what usage_daily.unique_visitors should add up to). */
async function estimatedVisitors(redis: Redis, day: string, prefixes: readonly string[]): Promise<number> {
  let total = 0;
  for (let start = 0; start < prefixes.length; start += FILL_BATCH) {
    const pipeline = redis.pipeline();
    for (const prefix of prefixes.slice(start, start + FILL_BATCH)) pipeline.pfcount(usageKeys.visitors(day, prefix));
    for (const [error, count] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      total += Number(count);
    }
  }
  return total;
}

/**
 * Fills `redisUrl` (which must hold no key: the benchmark deletes what it wrote, by name, at the end) with
 * one day of counters for `prefixes`, rolls the day up into `databaseUrl`'s usage_daily twice, and checks
 * the rows.
 */
export async function measureRollup(options: { databaseUrl: string; redisUrl: string; day: string; prefixes: readonly string[] }): Promise<RollupFigures> {
  const { day, prefixes } = options;
  const redis = connect(options.redisUrl);
  const db = createDb(options.databaseUrl, { max: 2 });
  try {
    const existing = await redis.dbsize();
    if (existing > 0) {
      throw new Error(
        `${options.redisUrl} holds ${existing} keys: the rollup benchmark needs a Redis database nobody else uses (set BENCH_ROLLUP_REDIS_DB)`,
      );
    }
    try {
      const fillStarted = performance.now();
      const written = await fill(redis, day, prefixes);
      const fillMs = Math.round(performance.now() - fillStarted);
      const estimated = await estimatedVisitors(redis, day, prefixes);

      await db('usage_daily').where({ day }).delete();
      const started = performance.now();
      const first = await rollUpUsage(db, redis, { day });
      const rollupMs = Math.round(performance.now() - started);
      const rerunStarted = performance.now();
      await rollUpUsage(db, redis, { day });
      const rerunMs = Math.round(performance.now() - rerunStarted);

      const row = (await db('usage_daily')
        .where({ day })
        .first(
          db.raw('count(*)::int AS rows'),
          db.raw('coalesce(sum(visits), 0)::bigint AS visits'),
          db.raw('coalesce(sum(unique_visitors), 0)::bigint AS visitors'),
          db.raw('count(visitors_hll)::int AS "withHll"'),
        )) as { rows: number; visits: number; visitors: number; withHll: number };
      const reported = first.days[0];
      const verified =
        row.rows === prefixes.length &&
        Number(row.visits) === written.visits &&
        Number(row.visitors) === estimated &&
        row.withHll === prefixes.length &&
        reported?.namespaces === prefixes.length &&
        reported.visits === written.visits;
      await db('usage_daily').where({ day }).delete();
      return {
        day,
        prefixes: prefixes.length,
        visits: written.visits,
        visitors: written.visitors,
        estimatedVisitors: estimated,
        fillMs,
        rollupMs,
        rerunMs,
        rows: row.rows,
        rowVisits: Number(row.visits),
        rowVisitors: Number(row.visitors),
        rowsWithHll: row.withHll,
        verified,
      };
    } finally {
      await removeDay(redis, day, prefixes);
    }
  } finally {
    redis.disconnect();
    await db.destroy();
  }
}
