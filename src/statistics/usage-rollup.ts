import type { Redis } from 'ioredis';
import type { Db } from '../db/knex.js';
import { usageKeys, utcDay } from './usage-keys.js';

export interface RollupResult {
  days: { day: string; namespaces: number; visits: number }[];
}

const BATCH = 1000;

/**
 * Copies finished days of usage counters from Redis into Postgres: visits, the unique-visitor estimate and
 * the HyperLogLog itself. Idempotent: it writes the day's absolute figures (never increments), so running it
 * twice gives the same rows. Without `day` it rolls every finished day not yet rolled up; with `day` it
 * rolls that day again.
 */
export async function rollUpUsage(db: Db, redis: Redis, options: { day?: string; now?: Date } = {}): Promise<RollupResult> {
  const today = utcDay(options.now ?? new Date());
  let days: string[];
  if (options.day) {
    days = [options.day];
  } else {
    const [all, rolled] = await Promise.all([redis.smembers(usageKeys.days), redis.smembers(usageKeys.rolledUp)]);
    const done = new Set(rolled);
    days = all.filter((d) => d < today && !done.has(d)).sort();
  }
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
    // Marked only once Postgres has the day: a crash before this line just rolls the day up again.
    await redis.sadd(usageKeys.rolledUp, day);
    result.days.push({ day, namespaces: prefixes.length, visits: total });
  }
  return result;
}
