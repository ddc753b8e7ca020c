import type { Knex } from 'knex';

/**
 * Suffix passthrough per namespace (issue 25 item 5; src/core/lui-suffix.ts): when on, a LUI its pattern
 * refuses resolves as its longest leading part the pattern matches, the rest appended to each provider URL
 * (`dandi:000027/0.210831.2033`). Off for every namespace, existing and new, until a curator turns it on
 * (the maintenance PATCH's `suffixPassthrough`, or the desk's namespace form). A change is a namespace
 * update, so the registry_changes trigger announces it to the resolvers like any other.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('namespaces', (table) => {
    table.boolean('suffix_passthrough').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('namespaces', (table) => {
    table.dropColumn('suffix_passthrough');
  });
}
