/**
 * notification_outbox: e-mails written in the transaction of the event that causes them (a submission, a
 * curator's decision) and sent by the notifications worker, so that a request is never held up, nor an
 * e-mail lost, by the mail server.
 */
import type { Knex } from 'knex';

export interface OutboxMessage {
  /** e.g. `prefix.start.requester`. */
  kind: string;
  recipient: string;
  subject: string;
  body: string;
}

/** A row of notification_outbox (its type is the table's, src/db/tables.ts). */
export type { OutboxRow } from '../db/tables.js';

/** Writes the messages in the caller's transaction: they are sent only if it commits. */
export async function writeOutbox(trx: Knex, messages: readonly OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await trx('notification_outbox').insert(messages.map((m) => ({ kind: m.kind, recipient: m.recipient, subject: m.subject, body: m.body })));
}
