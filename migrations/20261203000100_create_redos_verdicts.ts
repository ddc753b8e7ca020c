import type { Knex } from 'knex';

/**
 * The ReDoS checker's verdicts on the registry's LUI patterns (src/db/redos-verdicts.ts), so that a resolver
 * starting (each of a cluster's, each restart) reads them instead of asking the checker again about ~530
 * patterns (several seconds of CPU each time). Keyed by a digest of the regular expression's source and
 * flags (a pattern can be longer than a btree key may be); `checker` names the checker's version, and a
 * verdict of another version is checked again. Rebuildable: deleting every row costs one check per pattern.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('redos_verdicts', (table) => {
    table.text('key').primary();
    table.text('source').notNullable();
    table.text('flags').notNullable();
    table.text('checker').notNullable();
    table.jsonb('verdict').notNullable();
    table.timestamp('checked_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('redos_verdicts');
}
