/**
 * The namespace_usage_totals view (its migration says why it exists): each prefix's visits over the last
 * year, as of the last refresh.
 */
import type { Db } from './knex.js';

/** The view, to join: `prefix`, and `visits` (bigint) over the year before the last refresh. */
export const USAGE_TOTALS_VIEW = 'namespace_usage_totals';

/**
 * Sums the rolled-up days again (the nightly rollup, once it has written them). CONCURRENTLY: a search
 * reading the view meanwhile gets the previous figures instead of waiting for the refresh.
 */
export async function refreshUsageTotals(db: Db): Promise<void> {
  await db.raw(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${USAGE_TOTALS_VIEW}`);
}
