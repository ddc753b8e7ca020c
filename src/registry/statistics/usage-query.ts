import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { DomainError } from '../../core/domain-error.js';
import type { Db } from '../../db/knex.js';
import { usageKeys } from '../../statistics/usage-keys.js';

export interface UsageFigures {
  nb_uniq_visitors: number;
  nb_visits: number;
}

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
  if (days.length === 0) return { nb_uniq_visitors: 0, nb_visits: 0 };
  const rows = await db('usage_daily')
    .where({ prefix })
    .whereBetween('day', [days[0]!, days[days.length - 1]!])
    .select('day', 'visits', 'visitorsHll');
  const rolled = new Set(rows.map((r) => r.day));
  const liveDays = days.filter((d) => !rolled.has(d));

  let visits = rows.reduce((sum, r) => sum + Number(r.visits), 0);
  const pipeline = redis.pipeline();
  for (const day of liveDays) pipeline.hget(usageKeys.visits(day), prefix);
  const liveVisits = liveDays.length ? ((await pipeline.exec().catch(usageUnavailable)) ?? []) : [];
  for (const [, value] of liveVisits) visits += Number(value ?? 0);

  const temp = `usage:tmp:${randomBytes(8).toString('hex')}`;
  const tempKeys = rows.filter((r) => r.visitorsHll).map((_, i) => `${temp}:${i}`);
  const sources = [...tempKeys, ...liveDays.map((d) => usageKeys.visitors(d, prefix))];
  const merge = redis.multi();
  rows.filter((r) => r.visitorsHll).forEach((r, i) => merge.set(`${temp}:${i}`, r.visitorsHll!, 'PX', 60000));
  merge.pfmerge(temp, ...sources);
  merge.pfcount(temp);
  merge.del(temp, ...tempKeys);
  const answers = (await merge.exec().catch(usageUnavailable)) ?? [];
  const unique = Number(answers[answers.length - 2]?.[1] ?? 0);
  return { nb_uniq_visitors: unique, nb_visits: visits };
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
