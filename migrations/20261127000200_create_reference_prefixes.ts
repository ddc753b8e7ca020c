import type { Knex } from 'knex';

/**
 * Prefix lists of other registries (issue 15 item 6: Bioregistry, N2T, OBO Foundry, ...), loaded by curators
 * so that a requested prefix colliding with another registry's is flagged before it is accepted. Each
 * source's rows are replaced as a whole by a load; they are no part of the registry itself (no change is
 * logged, nothing is resolved through them).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('reference_prefixes', (t) => {
    t.bigIncrements('id');
    t.string('source', 100).notNullable();
    t.string('prefix', 255).notNullable();
    t.string('name', 2000).notNullable().defaultTo('');
    t.specificType('loaded', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
  });
  // The collision check looks prefixes up case-insensitively across sources; a source lists a prefix once.
  await knex.raw('CREATE INDEX reference_prefixes_lower_prefix ON reference_prefixes (lower(prefix))');
  await knex.raw('CREATE UNIQUE INDEX reference_prefixes_source_prefix ON reference_prefixes (source, lower(prefix))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('reference_prefixes');
}
