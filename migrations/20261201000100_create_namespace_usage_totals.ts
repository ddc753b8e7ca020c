import type { Knex } from 'knex';

/**
 * Each namespace's visits over the last year, one row per prefix: what the registry search breaks ties with
 * (issue 23 item 5). Summing usage_daily (up to a year of days per namespace) for every namespace a search
 * matches would cost each search hundreds of thousands of rows; this view is summed once per nightly rollup
 * (statistics/usage-rollup.ts refreshes it) and read by primary key. The window is the year before the
 * refresh, so a view not refreshed for a while only lags.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE MATERIALIZED VIEW namespace_usage_totals AS
      SELECT prefix, sum(visits)::bigint AS visits
      FROM usage_daily
      WHERE day > current_date - 366
      GROUP BY prefix`);
  // Unique, so that the refresh can run CONCURRENTLY: searches keep reading the old figures meanwhile.
  await knex.raw('CREATE UNIQUE INDEX namespace_usage_totals_prefix ON namespace_usage_totals (prefix)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP MATERIALIZED VIEW IF EXISTS namespace_usage_totals');
}
