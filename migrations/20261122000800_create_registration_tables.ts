import type { Knex } from 'knex';

/**
 * Prefix and resource registration requests, their sessions and events (the reference's model, §1.2 of
 * registry-behaviour.md), plus what the public API adds: a token per session for the requester, and stored
 * answers for Idempotency-Key retries. Events are one table with a column per event kind's text rather
 * than the reference's joined subtables; texts are not limited to 255 characters.
 */
const ts = 'timestamptz(3)';

function requestColumns(t: Knex.CreateTableBuilder, now: Knex.Raw): void {
  t.bigIncrements('id');
  t.string('provider_home_url', 2000).notNullable();
  t.string('provider_name', 255).notNullable();
  t.string('provider_description', 2000).notNullable();
  t.string('provider_location', 2).notNullable();
  t.string('provider_code', 255).notNullable();
  t.string('provider_url_pattern', 2000).notNullable();
  t.string('sample_id', 255).notNullable();
  t.string('institution_name', 255).notNullable();
  t.string('institution_description', 2000).notNullable();
  t.string('institution_home_url', 2000).notNullable();
  t.string('institution_location', 2).notNullable();
  t.string('institution_ror_id', 2000);
  t.text('additional_information');
  t.string('requester_name', 255).notNullable();
  t.string('requester_email', 255).notNullable();
  t.boolean('protected_urls').notNullable().defaultTo(false);
  t.boolean('render_protected_landing').notNullable().defaultTo(false);
  t.string('auth_help_url', 2000);
  t.string('auth_help_description', 2000);
  t.specificType('created', ts).notNullable().defaultTo(now);
}

function sessionColumns(t: Knex.CreateTableBuilder, now: Knex.Raw, requestTable: string): void {
  t.bigIncrements('id');
  // The requester's handle on the request (GET .../status/{token}); random, never derived from the id.
  t.string('token', 64).notNullable().unique();
  t.boolean('closed').notNullable().defaultTo(false).index();
  t.bigInteger('request_id').notNullable().references(`${requestTable}.id`).index();
  t.specificType('created', ts).notNullable().defaultTo(now);
  t.specificType('modified', ts).notNullable().defaultTo(now);
}

function eventColumns(t: Knex.CreateTableBuilder, now: Knex.Raw, sessionTable: string, requestTable: string): void {
  t.bigIncrements('id');
  t.bigInteger('session_id').notNullable().references(`${sessionTable}.id`).onDelete('CASCADE').index();
  t.bigInteger('request_id').references(`${requestTable}.id`).index();
  t.string('event_name', 20).notNullable().index();
  t.string('actor', 255).notNullable();
  t.text('additional_information');
  t.text('comment');
  t.text('rejection_reason');
  t.text('acceptance_reason');
  t.specificType('created', ts).notNullable().defaultTo(now);
}

export async function up(knex: Knex): Promise<void> {
  const now = knex.raw('now()');

  await knex.schema.createTable('prefix_registration_requests', (t) => {
    requestColumns(t, now);
    t.string('requested_prefix', 255).notNullable().index();
    t.string('name', 255).notNullable();
    t.string('description', 2000).notNullable();
    t.string('id_regex_pattern', 1000).notNullable();
    t.jsonb('supporting_references').notNullable().defaultTo('[]');
    t.boolean('namespace_embedded_in_lui').notNullable().defaultTo(false);
  });
  await knex.schema.createTable('prefix_registration_sessions', (t) => sessionColumns(t, now, 'prefix_registration_requests'));
  await knex.schema.createTable('prefix_registration_session_events', (t) =>
    eventColumns(t, now, 'prefix_registration_sessions', 'prefix_registration_requests'),
  );

  await knex.schema.createTable('resource_registration_requests', (t) => {
    requestColumns(t, now);
    t.string('namespace_prefix', 255).notNullable().index();
  });
  await knex.schema.createTable('resource_registration_sessions', (t) => sessionColumns(t, now, 'resource_registration_requests'));
  await knex.schema.createTable('resource_registration_session_events', (t) =>
    eventColumns(t, now, 'resource_registration_sessions', 'resource_registration_requests'),
  );

  // A retried submission with the same Idempotency-Key gets the first answer back, stored with the request
  // in the same transaction.
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.string('endpoint', 100).notNullable();
    t.string('key', 255).notNullable();
    t.string('request_hash', 64).notNullable();
    t.integer('response_status').notNullable();
    t.jsonb('response_body').notNullable();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now()).index();
    t.primary(['endpoint', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
  await knex.schema.dropTable('resource_registration_session_events');
  await knex.schema.dropTable('resource_registration_sessions');
  await knex.schema.dropTable('resource_registration_requests');
  await knex.schema.dropTable('prefix_registration_session_events');
  await knex.schema.dropTable('prefix_registration_sessions');
  await knex.schema.dropTable('prefix_registration_requests');
}
