/** The nightly rollup of the resolver's usage counters from Redis into Postgres (workers/usage). */
export const USAGE_ROLLUP_QUEUE = 'usage-rollup';

export interface UsageRollupJob {
  /** Roll up every finished day still in Redis (the nightly run) or only this day (YYYY-MM-DD). */
  day?: string;
}

/** The days a rollup wrote, with their figures. */
export interface RollupResult {
  days: { day: string; namespaces: number; visits: number }[];
}

/** Stable and versioned: upserting it again on every start changes nothing. */
export const NIGHTLY_USAGE_ROLLUP_SCHEDULER = 'usage-rollup:nightly:v1';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isCalendarDay(value: unknown): boolean {
  if (typeof value !== 'string' || !DAY.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  // Date.parse rolls 2026-02-30 over into March; Postgres would refuse it on every attempt.
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

/** Why a payload can never be rolled up, or null. */
export function checkUsageRollupJob(data: unknown): string | null {
  const day = (data as { day?: unknown } | null)?.day;
  if (day === undefined || isCalendarDay(day)) return null;
  return `a usage rollup job's day must be a date (YYYY-MM-DD), not ${JSON.stringify(day)}`;
}
