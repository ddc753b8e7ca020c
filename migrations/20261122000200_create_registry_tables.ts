import type { Knex } from 'knex';

// Column lengths follow the reference schema (255 for names and codes, 2000 for URLs and texts) so that
// anything the reference accepts fits here too. Timestamps keep milliseconds, as the reference writes them.
const ts = 'timestamptz(3)';

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pg_trgm');

  await knex.schema.createTable('persons', (t) => {
    t.bigIncrements('id');
    t.string('full_name', 255).notNullable().index();
    t.string('email', 255).notNullable().unique();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('modified', ts).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('institutions', (t) => {
    t.bigIncrements('id');
    t.string('name', 255).notNullable().unique();
    t.string('home_url', 2000).notNullable();
    t.string('description', 2000).notNullable();
    t.string('ror_id', 2000).unique();
    t.string('location_country_code', 2).notNullable().references('locations.country_code').index();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('modified', ts).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX institutions_name_trgm ON institutions USING gin (name gin_trgm_ops)');

  await knex.schema.createTable('namespaces', (t) => {
    t.bigIncrements('id');
    t.string('prefix', 255).notNullable();
    t.string('mir_id', 255).notNullable().unique();
    t.string('name', 255).notNullable().index();
    t.string('pattern', 1000).notNullable();
    t.string('description', 2000).notNullable();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('modified', ts).notNullable().defaultTo(knex.fn.now());
    t.string('sample_id', 255).notNullable();
    t.boolean('namespace_embedded_in_lui').notNullable().defaultTo(false);
    t.boolean('deprecated').notNullable().defaultTo(false).index();
    t.specificType('deprecation_date', ts);
    t.specificType('deprecation_offline_date', ts);
    t.boolean('render_deprecated_landing').notNullable().defaultTo(false);
    t.string('deprecation_statement', 2000);
    t.string('info_on_postmortem_access', 2000);
    t.bigInteger('successor_id').references('namespaces.id').onDelete('SET NULL').index();
    t.bigInteger('contact_person_id').references('persons.id').onDelete('SET NULL').index();
  });
  // Prefixes are unique whatever their case: resolution looks them up case-insensitively.
  await knex.raw('CREATE UNIQUE INDEX namespaces_prefix_lower_unique ON namespaces (lower(prefix))');
  // findByPrefix / findByPrefixStartsWith are case-sensitive like the reference: a btree on the column with
  // text_pattern_ops serves both equality and LIKE 'abc%'; the trigram index serves findByPrefixContaining.
  await knex.raw('CREATE INDEX namespaces_prefix_pattern ON namespaces (prefix text_pattern_ops)');
  await knex.raw('CREATE INDEX namespaces_prefix_trgm ON namespaces USING gin (prefix gin_trgm_ops)');

  await knex.schema.createTable('resources', (t) => {
    t.bigIncrements('id');
    t.string('mir_id', 255).notNullable().unique();
    t.string('url_pattern', 2000).notNullable();
    t.string('name', 255).notNullable();
    t.string('description', 2000);
    t.boolean('official').notNullable().defaultTo(false).index();
    t.string('provider_code', 255).notNullable().defaultTo('').index();
    t.string('sample_id', 255);
    t.string('resource_home_url', 2000).notNullable();
    t.bigInteger('namespace_id').notNullable().references('namespaces.id').onDelete('CASCADE').index();
    t.bigInteger('institution_id').notNullable().references('institutions.id').index();
    t.string('location_country_code', 2).notNullable().references('locations.country_code').index();
    t.bigInteger('contact_person_id').references('persons.id').onDelete('SET NULL').index();
    t.boolean('deprecated').notNullable().defaultTo(false).index();
    t.specificType('deprecation_date', ts);
    t.specificType('deprecation_offline_date', ts);
    t.boolean('render_deprecated_landing').notNullable().defaultTo(false);
    t.string('deprecation_statement', 2000);
    t.boolean('protected_urls').notNullable().defaultTo(false);
    t.boolean('render_protected_landing').notNullable().defaultTo(false);
    t.string('auth_help_url', 2000);
    t.string('auth_help_description', 2000);
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('modified', ts).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX resources_namespace_provider ON resources (namespace_id, provider_code)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('resources');
  await knex.schema.dropTable('namespaces');
  await knex.schema.dropTable('institutions');
  await knex.schema.dropTable('persons');
  // pg_trgm is left installed: other objects of the database may use it.
}
