import type { Knex } from 'knex';
import { countries } from './data/iso-3166-1.js';

// Locations are reference data (every ISO 3166-1 alpha-2 code), so they live in a migration rather than a
// seed: institution and resource rows reference them and must find them on every database.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('locations', (t) => {
    t.string('country_code', 2).primary();
    t.string('country_name', 255).notNullable().index();
    t.specificType('created', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
  });
  await knex<{ country_code: string; country_name: string }>('locations').insert(countries.map(([code, name]) => ({ country_code: code, country_name: name })));
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('locations');
}
