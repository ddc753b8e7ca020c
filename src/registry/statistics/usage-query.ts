import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DomainError } from '../../core/domain-error.js';
import type { Db } from '../../db/knex.js';
import { usageKeys } from '../../statistics/usage-keys.js';
import type { UsageFigures } from '../model/usage-statistics.js';

/** Every UTC day from `from` to `to` inclusive, as YYYY-MM-DD. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86400000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** Unique visitors are counted by merging HyperLogLogs in Redis; without Redis there is no honest figure. */
function usageUnavailable(error: unknown): never {
  throw new DomainError('unavailable', `Usage statistics are unavailable right now (Redis: ${(error as Error).message})`, {
    retryAfterSeconds: 30,
    cause: error,
  });
}

/**
 * Visits and unique visitors of one namespace over a span of days. Rolled-up days come from Postgres, the
 * others (today, or a day the nightly rollup has not reached yet) from the live Redis counters. Unique
 * visitors are counted over the whole span by merging the days' HyperLogLogs, so a visitor who comes back
 * on several days counts once.
 */
export async function usageOver(db: Db, redis: Redis, prefix: string, days: string[]): Promise<UsageFigures> {
  return (await usageSeries(db, redis, prefix, [days]))[0]!;
}

/**
 * `usageOver` for each span of consecutive, ascending days (a series' buckets), at a fixed cost whatever the
 * number of buckets: one Postgres query, one Redis pipeline for the live visits and one transaction for the
 * HyperLogLog merges, instead of the three round trips per bucket a loop over `usageOver` would make.
 */
export async function usageSeries(db: Db, redis: Redis, prefix: string, buckets: string[][]): Promise<UsageFigures[]> {
  const spans = buckets.filter((days) => days.length > 0);
  if (spans.length === 0) return buckets.map(() => ({ nb_uniq_visitors: 0, nb_visits: 0 }));
  const rows = await db('usage_daily')
    .where({ prefix })
    .whereBetween('day', [spans[0]![0]!, spans[spans.length - 1]!.at(-1)!])
    .select('day', 'visits', 'visitorsHll');
  const rowByDay = new Map(rows.map((r) => [r.day, r]));

  const liveDays = spans.flat().filter((d) => !rowByDay.has(d));
  const visitsByDay = new Map(rows.map((r) => [r.day, Number(r.visits)]));
  if (liveDays.length > 0) {
    const pipeline = redis.pipeline();
    for (const day of liveDays) pipeline.hget(usageKeys.visits(day), prefix);
    const liveVisits = (await pipeline.exec().catch(usageUnavailable)) ?? [];
    liveVisits.forEach(([, value], i) => visitsByDay.set(liveDays[i]!, Number(value ?? 0)));
  }

  const temp = `usage:tmp:${randomBytes(8).toString('hex')}`;
  const storedKey = (day: string) => `${temp}:${day}`;
  const stored = rows.filter((r) => r.visitorsHll);
  const merge = redis.multi();
  for (const r of stored) merge.set(storedKey(r.day), r.visitorsHll!, 'PX', 60000);
  const countAt = new Map<string[], number>();
  let index = stored.length;
  spans.forEach((days, b) => {
    const sources = days.flatMap((d) => {
      const row = rowByDay.get(d);
      if (!row) return [usageKeys.visitors(d, prefix)];
      return row.visitorsHll ? [storedKey(d)] : [];
    });
    merge.pfmerge(`${temp}:b${b}`, ...sources);
    merge.pfcount(`${temp}:b${b}`);
    countAt.set(days, index + 1);
    index += 2;
  });
  merge.del(...spans.map((_, b) => `${temp}:b${b}`), ...stored.map((r) => storedKey(r.day)));
  const answers = (await merge.exec().catch(usageUnavailable)) ?? [];
  return buckets.map((days) => {
    const at = countAt.get(days);
    if (at === undefined) return { nb_uniq_visitors: 0, nb_visits: 0 };
    return {
      nb_uniq_visitors: Number(answers[at]?.[1] ?? 0),
      nb_visits: days.reduce((sum, d) => sum + (visitsByDay.get(d) ?? 0), 0),
    };
  });
}

/** Days for which the live Redis counters may still hold visits the rollup has not copied (their TTL). */
const LIVE_DAYS = 40;

/**
 * Visits per month (YYYY-MM) over whole months, oldest first, for a chart: one query of the rolled-up days
 * and one pipeline of the recent days the rollup has not reached. Unique visitors are left out: counting
 * them per month needs a HyperLogLog merge each, and a chart of visits does not.
 */
export async function visitsPerMonth(db: Db, redis: Redis, prefix: string, months: string[], today: string): Promise<{ month: string; visits: number }[]> {
  if (months.length === 0) return [];
  const from = `${months[0]!}-01`;
  const lastMonth = months[months.length - 1]!;
  // Day 0 of the next month is the last day of this one.
  const to = new Date(Date.UTC(Number(lastMonth.slice(0, 4)), Number(lastMonth.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const totals = new Map(months.map((m) => [m, 0]));
  const rows = await db('usage_daily').where({ prefix }).whereBetween('day', [from, to]).select('day', 'visits');
  const rolled = new Set<string>();
  for (const row of rows) {
    rolled.add(row.day);
    const month = row.day.slice(0, 7);
    totals.set(month, (totals.get(month) ?? 0) + Number(row.visits));
  }
  const recentFrom = new Date(Date.parse(`${today}T00:00:00Z`) - (LIVE_DAYS - 1) * 86400000).toISOString().slice(0, 10);
  const liveDays = daysBetween(recentFrom > from ? recentFrom : from, today < to ? today : to).filter((d) => !rolled.has(d));
  if (liveDays.length > 0) {
    const pipeline = redis.pipeline();
    for (const day of liveDays) pipeline.hget(usageKeys.visits(day), prefix);
    const answers = (await pipeline.exec().catch(usageUnavailable)) ?? [];
    answers.forEach(([, value], i) => {
      const month = liveDays[i]!.slice(0, 7);
      if (totals.has(month)) totals.set(month, totals.get(month)! + Number(value ?? 0));
    });
  }
  return months.map((month) => ({ month, visits: totals.get(month) ?? 0 }));
}
