import type { Knex } from 'knex';

/**
 * Canonical-LUI rules per namespace (issue 15 item 2; src/core/lui-rules.ts), as data: a JSON object of
 * rules, or NULL where none is stored yet, in which case the resolver derives them from the namespace's
 * pattern when it loads the namespace. The importer stores the derived rules, a pattern edit derives them
 * again, and a curator may replace them (the maintenance PATCH's `luiRules`). A change is a namespace
 * update, so the registry_changes trigger announces it to the resolvers like any other.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('namespaces', (table) => {
    table.jsonb('lui_rules').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('namespaces', (table) => {
    table.dropColumn('lui_rules');
  });
}
