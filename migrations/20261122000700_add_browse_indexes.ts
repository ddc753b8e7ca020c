import type { Knex } from 'knex';

// Browse pages sorted by name and searches by provider code page through these with an id tiebreak;
// a composite index serves both the order and the tiebreak without a sort step.
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX namespaces_name_id ON namespaces (name, id)');
  await knex.raw('CREATE INDEX resources_provider_code_id ON resources (provider_code, id)');
  await knex.raw('CREATE INDEX institutions_location_id ON institutions (location_country_code, id)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS institutions_location_id');
  await knex.raw('DROP INDEX IF EXISTS resources_provider_code_id');
  await knex.raw('DROP INDEX IF EXISTS namespaces_name_id');
}
