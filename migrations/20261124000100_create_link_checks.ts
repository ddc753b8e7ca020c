import type { Knex } from 'knex';

/** What a link check found; see src/db/tables.ts (LinkCheckOutcome) for the meaning of each class. */
export const LINK_CHECK_OUTCOMES = [
  'up',
  'protected',
  'http_error',
  'not_found',
  'timeout',
  'dns',
  'tls',
  'refused',
  'bot_blocked',
  'redirect_loop',
  'skipped',
] as const;

/**
 * Link checks (issue 12): every check of a resource's sample URL or home URL, kept LINKCHECK_HISTORY_DAYS
 * (pruned by housekeeping), and the runs they belong to. Postgres holds them because the recommendation
 * index of every provider is computed from them: they are measurements that cannot be rebuilt.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('link_check_runs', (t) => {
    t.string('id', 64).primary();
    // The prefix the run was limited to (npm run linkcheck -- --prefix P), or null for the whole registry.
    t.string('prefix', 255);
    t.integer('planned').notNullable().defaultTo(0);
    t.integer('done').notNullable().defaultTo(0);
    t.specificType('started_at', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
    t.specificType('finished_at', 'timestamptz(3)');
  });
  await knex.schema.createTable('link_checks', (t) => {
    t.bigIncrements('id').primary();
    t.integer('resource_id').notNullable().references('id').inTable('resources').onDelete('CASCADE');
    t.string('url_kind', 16).notNullable();
    t.text('url').notNullable();
    t.string('run_id', 64).references('id').inTable('link_check_runs').onDelete('SET NULL');
    t.specificType('checked_at', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
    t.integer('http_status');
    t.integer('latency_ms');
    t.text('final_url');
    t.string('outcome', 32).notNullable();
    // What the class does not say: the error code, the challenge marker, the hop that looped.
    t.text('detail');
    // One check of a URL per run, whatever retries or second workers do.
    t.unique(['run_id', 'resource_id', 'url_kind']);
    t.index(['resource_id', 'url_kind', 'checked_at']);
    t.index(['checked_at']);
  });
  await knex.raw(`ALTER TABLE link_checks ADD CONSTRAINT link_checks_url_kind CHECK (url_kind IN ('sample', 'home'))`);
  await knex.raw(
    `ALTER TABLE link_checks ADD CONSTRAINT link_checks_outcome CHECK (outcome IN (${LINK_CHECK_OUTCOMES.map((o) => `'${o}'`).join(', ')}))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('link_checks');
  await knex.schema.dropTable('link_check_runs');
}
