import type { Knex } from 'knex';

/**
 * The reference's curation warnings (registry-behaviour.md §5.3, "Curation warnings"): what a registry
 * validator reports about a namespace, a resource or an institution (a failing URL, a field still reading
 * CURATOR_REVIEW, ...), kept as a full snapshot by POST /curationApi/notifications, with the history of
 * each warning (CREATED, SOLVED, REOPENED, DISABLED). The target is one of three foreign keys, exactly one
 * set, so a warning goes with what it warns about.
 */
const ts = 'timestamptz(3)';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('curation_warnings', (t) => {
    t.bigIncrements('id');
    t.string('global_id', 2000).notNullable().unique();
    t.string('type', 255).notNullable();
    t.bigInteger('namespace_id').references('namespaces.id').onDelete('CASCADE').index();
    t.bigInteger('resource_id').references('resources.id').onDelete('CASCADE').index();
    t.bigInteger('institution_id').references('institutions.id').onDelete('CASCADE').index();
    t.boolean('open').notNullable().defaultTo(true);
    // [{"label": ..., "value": ...}] in the order the validator sent them (a jsonb object would reorder them).
    t.jsonb('details').notNullable().defaultTo('[]');
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('modified', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('last_notification', ts);
  });
  await knex.raw(
    'ALTER TABLE curation_warnings ADD CONSTRAINT curation_warnings_one_target CHECK (num_nonnulls(namespace_id, resource_id, institution_id) = 1)',
  );
  // The summary and the sync read the open ones only.
  await knex.raw('CREATE INDEX curation_warnings_open ON curation_warnings (id) WHERE open');

  await knex.schema.createTable('curation_warning_events', (t) => {
    t.bigIncrements('id');
    t.bigInteger('warning_id').notNullable().references('curation_warnings.id').onDelete('CASCADE');
    t.string('type', 20).notNullable();
    t.string('actor', 255).notNullable();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.index(['warning_id', 'id']);
  });
  await knex.raw(
    `ALTER TABLE curation_warning_events ADD CONSTRAINT curation_warning_events_type CHECK (type IN ('CREATED', 'REOPENED', 'SOLVED', 'DISABLED'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('curation_warning_events');
  await knex.schema.dropTable('curation_warnings');
}
