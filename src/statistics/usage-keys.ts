/**
 * Redis keys of the usage counters, one set per UTC day. Redis holds only the current, not yet rolled-up
 * days; the nightly rollup copies finished days (visits and the HyperLogLog itself) into Postgres.
 */
export const usageKeys = {
  /** Hash: namespace prefix → visits that day. */
  visits: (day: string) => `usage:visits:${day}`,
  /** HyperLogLog of keyed visitor hashes for one namespace and day. */
  visitors: (day: string, prefix: string) => `usage:visitors:${day}:${prefix}`,
  /** Set of the prefixes seen that day, so the rollup finds every visitors key without SCAN. */
  prefixes: (day: string) => `usage:prefixes:${day}`,
  /** Set of the days that have counters, for the rollup. */
  days: 'usage:days',
  /** Set of the days copied into Postgres, for reading; the rollup goes by usage_daily itself. */
  rolledUp: 'usage:rolled-up',
};

/** Counters live for a while after their day so a rollup that failed for a few nights can still run. */
export const USAGE_KEY_TTL_SECONDS = 40 * 24 * 3600;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
