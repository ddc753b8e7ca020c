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

/** A row of notification_outbox. */
export interface OutboxRow {
  id: number;
  kind: string;
  recipient: string;
  subject: string;
  body: string;
  created: Date;
  sentAt: Date | null;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: Date;
}

/** Writes the messages in the caller's transaction: they are sent only if it commits. */
export async function writeOutbox(trx: Knex, messages: readonly OutboxMessage[]): Promise<void> {
  if (messages.length === 0) return;
  await trx('notificationOutbox').insert(messages.map((m) => ({ kind: m.kind, recipient: m.recipient, subject: m.subject, body: m.body })));
}
