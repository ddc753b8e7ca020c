/**
 * A namespace's usage figures as the statistics route serves them and the namespace page charts them: the
 * statistics feature implements StatisticsService, the pages are given it.
 */

export interface UsageFigures {
  nb_uniq_visitors: number;
  nb_visits: number;
}

/** What the statistics route and the namespace page read (built by the registry app on its database and Redis). */
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
