import type { Knex } from 'knex';

/**
 * What curation needs besides the registration tables: the sequence MIR ids are minted from at acceptance
 * (the reference called a separate MIR id service), and the outbox of e-mail notifications, written in the
 * same transaction as the event that causes them and sent by a worker (the reference sent them inside the
 * request and dropped them on any SMTP failure).
 */
const ts = 'timestamptz(3)';

export async function up(knex: Knex): Promise<void> {
  // Starts at 0: acceptance first moves it past the highest MIR id in the registry (imported data included),
  // so a fresh registry's first id is MIR:00000001.
  await knex.raw('CREATE SEQUENCE mir_ids AS bigint MINVALUE 0 START WITH 0');

  await knex.schema.createTable('notification_outbox', (t) => {
    t.bigIncrements('id');
    // e.g. 'prefix.start.requester', 'resource.accept.requester'.
    t.string('kind', 50).notNullable();
    t.string('recipient', 1000).notNullable();
    t.string('subject', 500).notNullable();
    t.text('body').notNullable();
    t.specificType('created', ts).notNullable().defaultTo(knex.fn.now());
    t.specificType('sent_at', ts);
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
    t.specificType('next_attempt_at', ts).notNullable().defaultTo(knex.fn.now());
  });
  // The sender's only query: unsent rows that are due, oldest first.
  await knex.raw('CREATE INDEX notification_outbox_due ON notification_outbox (next_attempt_at, id) WHERE sent_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('notification_outbox');
  await knex.raw('DROP SEQUENCE IF EXISTS mir_ids');
}
