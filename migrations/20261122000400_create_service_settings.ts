import type { Knex } from 'knex';

/**
 * Values the service generates for itself and every process must share, such as the key of the visitor
 * hash for usage statistics: kept in Postgres so that all resolver processes agree and a restart keeps it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('service_settings', (t) => {
    t.string('name', 100).primary();
    t.text('value').notNullable();
    t.specificType('created', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('service_settings');
}
