import { badRequest } from '../../http/http-error.js';
import { daysBetween } from './usage-query.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 366;
const MAX_MONTHS = 60;

export interface SeriesRequest {
  period: 'day' | 'month';
  /** Each bucket of the series: its label (YYYY-MM-DD or YYYY-MM) and its days. */
  buckets: { label: string; days: string[] }[];
}

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The reference's default: the previous calendar month, in UTC. */
export function previousMonthDays(now: Date): string[] {
  const firstOfThisMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const lastOfPrevious = new Date(firstOfThisMonth - 86400000);
  const firstOfPrevious = new Date(Date.UTC(lastOfPrevious.getUTCFullYear(), lastOfPrevious.getUTCMonth(), 1));
  return daysBetween(isoDay(firstOfPrevious), isoDay(lastOfPrevious));
}

function parseDay(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || isoDay(new Date(`${value}T00:00:00Z`)) !== value) {
    throw badRequest(`'${name}' must be a date written YYYY-MM-DD`);
  }
  return value;
}

/** `?period=day|month&from=YYYY-MM-DD&to=YYYY-MM-DD` (our addition): a time series instead of one figure. */
export function parseSeriesRequest(query: Record<string, unknown>, now: Date): SeriesRequest {
  const period = query.period;
  if (period !== 'day' && period !== 'month') throw badRequest("'period' must be 'day' or 'month'");
  const to = parseDay('to', query.to) ?? isoDay(now);
  const defaultFrom =
    period === 'day'
      ? isoDay(new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86400000))
      : `${isoDay(new Date(Date.UTC(Number(to.slice(0, 4)), Number(to.slice(5, 7)) - 12, 1)))}`;
  const from = parseDay('from', query.from) ?? defaultFrom;
  if (from > to) throw badRequest("'from' must not be after 'to'");
  // The span is measured from the two dates before any list of days is built: a list of the days between
  // years 1 and 9999 would cost seconds and megabytes just to be refused.
  if (period === 'day') {
    if (daySpan(from, to) > MAX_DAYS) throw badRequest(`A daily series covers at most ${MAX_DAYS} days`);
    return { period, buckets: daysBetween(from, to).map((d) => ({ label: d, days: [d] })) };
  }
  if (monthSpan(from, to) > MAX_MONTHS) throw badRequest(`A monthly series covers at most ${MAX_MONTHS} months`);
  const months = new Map<string, string[]>();
  for (const d of daysBetween(from, to)) {
    const month = d.slice(0, 7);
    months.set(month, [...(months.get(month) ?? []), d]);
  }
  return { period, buckets: [...months].map(([label, ds]) => ({ label, days: ds })) };
}

/** How many days from `from` to `to` inclusive (both valid YYYY-MM-DD). */
function daySpan(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86400000 + 1;
}

/** How many calendar months from `from`'s to `to`'s inclusive. */
function monthSpan(from: string, to: string): number {
  const monthNumber = (day: string) => Number(day.slice(0, 4)) * 12 + Number(day.slice(5, 7));
  return monthNumber(to) - monthNumber(from) + 1;
}
