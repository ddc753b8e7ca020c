import type { Knex } from 'knex';

/**
 * Usage per namespace and UTC day, rolled up from Redis every night. The HyperLogLog of the day's visitor
 * hashes is kept with the figures so that unique visitors over any period can be counted by merging days
 * (a sum of daily uniques would count a returning visitor once per day).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('usage_daily', (t) => {
    t.date('day').notNullable();
    t.string('prefix', 255).notNullable();
    t.bigInteger('visits').notNullable();
    t.integer('unique_visitors').notNullable();
    t.binary('visitors_hll');
    t.specificType('rolled_up_at', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
    t.primary(['prefix', 'day']);
    t.index(['day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('usage_daily');
}
