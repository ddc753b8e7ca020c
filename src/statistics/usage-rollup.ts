import type { Redis } from 'ioredis';
import type { Db } from '../db/knex.js';
import { refreshUsageTotals } from '../db/usage-totals.js';
import type { RollupResult } from '../queue/usage-rollup.queue.js';
import { usageKeys, utcDay } from './usage-keys.js';

const BATCH = 1000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The finished days that Redis still has counters for and usage_daily has no rows of. Postgres, not the
 * rolled-up mark in Redis, says what is done: a Redis restored from an older copy, or marks written for
 * another database, must not make a day be skipped. A day whose counters expired (USAGE_KEY_TTL_SECONDS
 * after it) cannot be recovered, and is left out.
 */
async function daysToRollUp(db: Db, redis: Redis, today: string): Promise<string[]> {
  const finished = (await redis.smembers(usageKeys.days)).filter((d) => DAY.test(d) && d < today);
  if (finished.length === 0) return [];
  const stored = await db('usage_daily').distinct('day').whereIn('day', finished);
  const done = new Set(stored.map((row) => row.day));
  const missing = finished.filter((d) => !done.has(d)).sort();
  const pipeline = redis.pipeline();
  for (const day of missing) pipeline.exists(usageKeys.visits(day));
  const exists = missing.length > 0 ? ((await pipeline.exec()) ?? []) : [];
  return missing.filter((_, i) => exists[i]?.[1] === 1);
}

/**
 * Copies finished days of usage counters from Redis into Postgres: visits, the unique-visitor estimate and
 * the HyperLogLog itself. Idempotent: it writes the day's absolute figures (never increments), so running it
 * twice gives the same rows. Without `day` it rolls every finished day still in Redis that Postgres lacks
 * (the nightly run, and the catch-up after runs were missed); with `day` it rolls that day again.
 */
export async function rollUpUsage(db: Db, redis: Redis, options: { day?: string; now?: Date } = {}): Promise<RollupResult> {
  const today = utcDay(options.now ?? new Date());
  const days = options.day ? [options.day] : await daysToRollUp(db, redis, today);
  const result: RollupResult = { days: [] };
  for (const day of days) {
    const prefixes = (await redis.smembers(usageKeys.prefixes(day))).sort();
    const visits = await redis.hgetall(usageKeys.visits(day));
    let total = 0;
    await db.transaction(async (trx) => {
      for (let start = 0; start < prefixes.length; start += BATCH) {
        const slice = prefixes.slice(start, start + BATCH);
        const pipeline = redis.pipeline();
        // PFCOUNT first: it caches the estimate inside the HyperLogLog's bytes, so reading them after it
        // gives the same bytes on every run.
        for (const prefix of slice) {
          pipeline.pfcount(usageKeys.visitors(day, prefix));
          pipeline.getBuffer(usageKeys.visitors(day, prefix));
        }
        const answers = (await pipeline.exec()) ?? [];
        const rows = slice.map((prefix, i) => {
          const unique = Number(answers[2 * i]?.[1] ?? 0);
          const hll = answers[2 * i + 1]?.[1] as Buffer | null | undefined;
          const count = Number(visits[prefix] ?? 0);
          total += count;
          return { day, prefix, visits: count, uniqueVisitors: unique, visitorsHll: hll ?? null, rolledUpAt: new Date() };
        });
        await trx('usage_daily').insert(rows).onConflict(['prefix', 'day']).merge(['visits', 'uniqueVisitors', 'visitorsHll', 'rolledUpAt']);
      }
    });
    // For operators reading Redis; which days are done is decided by usage_daily.
    await redis.sadd(usageKeys.rolledUp, day);
    result.days.push({ day, namespaces: prefixes.length, visits: total });
  }
  // The search's yearly totals follow the days just written (a run with nothing to roll changes nothing).
  if (result.days.length > 0) await refreshUsageTotals(db);
  return result;
}
