import type { Redis } from 'ioredis';
import type { Db } from '../../db/knex.js';
import { findNamespaceByPrefixIgnoringCase } from '../../db/registry-reads.js';
import { usageOver, usageSeries, visitsPerMonth, type UsageFigures } from './usage-query.js';

/** What the statistics route reads (built by the registry app on its database and Redis). */
export interface StatisticsService {
  /** The stored prefix of the namespace whose prefix is this one whatever its case, if any. */
  namespacePrefix(asked: string): Promise<string | undefined>;
  /** A namespace's figures over the days (usage-query.ts); 503 with Retry-After when Redis cannot give them. */
  usageOver(prefix: string, days: string[]): Promise<UsageFigures>;
  /** `usageOver` for each bucket of consecutive days of a series, in a fixed number of round trips. */
  usageSeries(prefix: string, buckets: string[][]): Promise<UsageFigures[]>;
  /** A namespace's visits per month (YYYY-MM, oldest first) up to `today` (usage-query.ts), for the namespace page's chart. */
  visitsPerMonth(prefix: string, months: string[], today: string): Promise<{ month: string; visits: number }[]>;
}

export function createStatisticsService(db: Db, redis: Redis): StatisticsService {
  return {
    namespacePrefix: async (asked) => (await findNamespaceByPrefixIgnoringCase(db, asked))?.prefix,
    // Redis failures are the query's own domain error (503 with Retry-After), Postgres's the error mapping's.
    usageOver: (prefix, days) => usageOver(db, redis, prefix, days),
    usageSeries: (prefix, buckets) => usageSeries(db, redis, prefix, buckets),
    visitsPerMonth: (prefix, months, today) => visitsPerMonth(db, redis, prefix, months, today),
  };
}
