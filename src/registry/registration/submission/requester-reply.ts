/**
 * The requester's answer to the curators, from the status page (or its JSON twin): a COMMENT event by the
 * requester on an open session, found by the requester's token, and a notice to the curators, in one
 * transaction that locks the session (a curator closing it meanwhile is served first or after, never
 * half-way).
 */
import type { Db } from '../../../db/knex.js';
import { DomainError } from '../../../core/domain-error.js';
import { writeOutbox } from '../../../notifications/outbox.js';
import { requesterReplyMessages, type NotificationSettings } from '../../model/notification-messages.js';
import { insertEvent, REGISTRATION_TABLES, type RequestKind } from '../../model/registration-records.js';

/** The actor of the requester's comments: the status page tells them from the curators' by it. */
export const REQUESTER_ACTOR = 'REQUESTER';
/** An answer is a message, not a document. */
export const MAX_REPLY_LENGTH = 5000;

export const UNKNOWN_TOKEN_MESSAGE = 'No registration request has this token';

/** Where the answer was written, recorded as the event's additional information. */
export type ReplySource = 'status page' | 'API';

/** The answer's text, checked: 'invalid' when blank or too long. */
export function checkReply(comment: unknown): string {
  if (typeof comment !== 'string' || comment.trim() === '') throw new DomainError('invalid', 'Comment is required');
  if (comment.length > MAX_REPLY_LENGTH) throw new DomainError('invalid', `Comment MUST be at most ${MAX_REPLY_LENGTH} characters`);
  return comment;
}

/**
 * Records the requester's answer on the session of `token` (of this kind). Throws DomainError not-found for
 * an unknown token and conflict for a closed session.
 */
export async function recordRequesterReply(
  db: Db,
  kind: RequestKind,
  token: string,
  comment: string,
  source: ReplySource,
  notifications: NotificationSettings,
): Promise<void> {
  const tables = REGISTRATION_TABLES[kind];
  await db.transaction(async (trx) => {
    const session = await trx(tables.sessions).first('*').where({ token }).forUpdate();
    if (!session) throw new DomainError('not-found', UNKNOWN_TOKEN_MESSAGE);
    if (session.closed) throw new DomainError('conflict', 'This request is closed: the curators have decided on it, so it takes no more comments');
    const request = await trx(tables.requests).first('*').where({ id: session.requestId });
    await insertEvent(trx, kind, {
      sessionId: session.id,
      requestId: session.requestId,
      eventName: 'COMMENT',
      actor: REQUESTER_ACTOR,
      additionalInformation: `Source: requester, ${source}`,
      comment,
    });
    await trx(tables.sessions).update({ modified: trx.fn.now() }).where({ id: session.id });
    if (request) await writeOutbox(trx, requesterReplyMessages(kind, request, { id: session.id }, comment, notifications));
  });
}
