import type { Knex } from 'knex';

/**
 * The log of curators' changes to the registry (issue 13): every edit, successor change, deactivation,
 * reactivation and deletion, written in the transaction of the change, with who made it and what changed.
 * The curator is named as the sign-in knows them: today the holder of CURATOR_TOKEN (actor_kind 'token',
 * named by CURATOR_NAME); an OpenID Connect sign-in records its issuer and subject as well, so that two
 * people with the same display name stay apart. The entity is not a foreign key: the log outlives a
 * deleted institution, which its label still names.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('curation_events', (t) => {
    t.bigIncrements('id');
    // 'namespace.update', 'namespace.successor', 'namespace.deactivate', 'resource.reactivate', 'institution.delete', ...
    t.string('action', 50).notNullable();
    t.string('entity', 20).notNullable();
    t.bigInteger('entity_id').notNullable();
    // The prefix, MIR id or name the entity had when the change was made.
    t.string('entity_label', 255).notNullable();
    t.string('actor', 255).notNullable();
    t.string('actor_kind', 20).notNullable();
    t.string('actor_issuer', 2000);
    t.string('actor_subject', 255);
    // {"<field>": {"from": <before>, "to": <after>}} for every field the change touched.
    t.jsonb('changes').notNullable().defaultTo('{}');
    t.string('additional_information', 2000);
    t.specificType('created', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
    t.index(['entity', 'entity_id', 'created']);
    t.index(['created']);
  });
  await knex.raw(`ALTER TABLE curation_events ADD CONSTRAINT curation_events_entity CHECK (entity IN ('namespace', 'resource', 'institution'))`);
  await knex.raw(`ALTER TABLE curation_events ADD CONSTRAINT curation_events_actor_kind CHECK (actor_kind IN ('token', 'oidc'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('curation_events');
}
