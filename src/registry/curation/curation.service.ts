/**
 * The curators' operations on a registration session (registry-behaviour.md §2.7) other than acceptance
 * (acceptance.service.ts): comment, amend (re-validated here, unlike the reference), reject; and the reads
 * behind the curators' HAL lists. Each operation is one transaction that locks the session row, so two
 * curators acting on one session at once are served one after the other.
 */
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { ChecksIncompleteError, type RequestValidation } from '../model/request-validation.js';
import {
  insertEvent,
  insertRequest,
  REGISTRATION_TABLES,
  type EventName,
  type EventRow,
  type RequestKind,
  type RequestRow,
  type SessionRow,
} from '../model/registration-records.js';
import { InvalidPayloadError, isPayloadObject, normaliseRegistrationPayload } from '../model/registration-payload.js';
import { AMENDED_FIELD, CurationError, type Operation, type SessionEventPayload, type SessionPage } from '../model/curation-operations.js';
import { writeOutbox } from '../../notifications/outbox.js';
import { rejectionMessages } from '../model/notification-messages.js';

const NOUN: Record<Operation, string> = { amend: 'amendment', comment: 'comment', reject: 'rejection', accept: 'acceptance' };

/** The reference's message for a session id that names no session. */
export function unknownSessionMessage(kind: RequestKind, operation: Operation, rawId: string): string {
  const id = rawId.slice(0, 100);
  const op = operation.toUpperCase();
  return kind === 'prefix'
    ? `INVALID Prefix Registration ${op} Request, session with ID '${id}' IS NOT VALID`
    : `INVALID Resource Registration '${op}' request, session with ID '${id}' IS NOT VALID`;
}

/** The reference's message for an operation on a closed session (answered 409 here, not 500). */
export function closedSessionMessage(kind: RequestKind, operation: Operation): string {
  return `NO ${NOUN[operation]} requests ACCEPTED on ALREADY CLOSED ${kind === 'prefix' ? 'Prefix' : 'Resource'} Registration Session`;
}

// Bigint ids; anything else names no session.
const SESSION_ID = /^[0-9]{1,15}$/;

export function parseSessionId(kind: RequestKind, operation: Operation, rawId: string): number {
  if (!SESSION_ID.test(rawId)) throw new CurationError('invalid', unknownSessionMessage(kind, operation, rawId), true);
  return Number(rawId);
}

export interface LockedSession {
  session: SessionRow;
  request: RequestRow;
}

/** Locks an OPEN session for the rest of the transaction; 400 when unknown, 409 when closed. */
export async function lockOpenSession(trx: Knex, kind: RequestKind, operation: Operation, sessionId: number): Promise<LockedSession> {
  const tables = REGISTRATION_TABLES[kind];
  const session = await trx(tables.sessions).first('*').where({ id: sessionId }).forUpdate();
  if (!session) throw new CurationError('invalid', unknownSessionMessage(kind, operation, String(sessionId)), true);
  if (session.closed) throw new CurationError('conflict', closedSessionMessage(kind, operation));
  const request = await trx(tables.requests).first('*').where({ id: session.requestId });
  return { session, request };
}

async function sessionExists(db: Db, kind: RequestKind, sessionId: number): Promise<boolean> {
  return (await db(REGISTRATION_TABLES[kind].sessions).first('id').where({ id: sessionId })) !== undefined;
}

async function touchSession(trx: Knex, kind: RequestKind, sessionId: number, changes: Record<string, unknown>): Promise<void> {
  await trx(REGISTRATION_TABLES[kind].sessions)
    .update({ ...changes, modified: trx.fn.now() })
    .where({ id: sessionId });
}

export async function commentOnSession(db: Db, kind: RequestKind, sessionId: number, payload: SessionEventPayload): Promise<void> {
  await db.transaction(async (trx) => {
    const { session } = await lockOpenSession(trx, kind, 'comment', sessionId);
    await insertEvent(trx, kind, {
      sessionId: session.id,
      requestId: session.requestId,
      eventName: 'COMMENT',
      actor: payload.actor,
      additionalInformation: payload.text('additionalInformation'),
      comment: payload.text('comment'),
    });
    await touchSession(trx, kind, session.id, {});
  });
}

export async function rejectSession(db: Db, kind: RequestKind, sessionId: number, payload: SessionEventPayload): Promise<void> {
  await db.transaction(async (trx) => {
    const { session, request } = await lockOpenSession(trx, kind, 'reject', sessionId);
    const reason = payload.text('rejectionReason');
    await insertEvent(trx, kind, {
      sessionId: session.id,
      requestId: session.requestId,
      eventName: 'REJECT',
      actor: payload.actor,
      additionalInformation: payload.text('additionalInformation'),
      rejectionReason: reason,
    });
    await touchSession(trx, kind, session.id, { closed: true });
    await writeOutbox(trx, rejectionMessages(kind, request, reason));
  });
}

/** The 400 of an amendment that does not validate: every message, as registerPrefix words it. */
function invalidAmendment(kind: RequestKind, messages: readonly string[]): CurationError {
  const joined = messages.join('\n');
  return new CurationError(
    'invalid',
    kind === 'prefix' ? `INVALID Prefix registration request due to '${joined}'` : `INVALID Resource registration request due to '${joined}'`,
    true,
  );
}

/**
 * Replaces the session's current request with a new version, which must pass every validation chain (the
 * reference stored amendments unchecked). The checks run before the session is locked: a slow URL check
 * never holds the row.
 */
export async function amendSession(
  db: Db,
  validator: RequestValidation,
  kind: RequestKind,
  sessionId: number,
  payload: SessionEventPayload,
): Promise<void> {
  if (!(await sessionExists(db, kind, sessionId))) throw new CurationError('invalid', unknownSessionMessage(kind, 'amend', String(sessionId)), true);
  const field = AMENDED_FIELD[kind];
  const rawRequest = payload.raw[field];
  if (!isPayloadObject(rawRequest)) throw new CurationError('invalid', `'${field}' is required: the amended request`, true);
  let amended;
  let messages: string[];
  try {
    amended = normaliseRegistrationPayload(rawRequest);
    messages = await validator.validateRequest(kind, amended);
  } catch (error) {
    if (error instanceof InvalidPayloadError) throw invalidAmendment(kind, [error.message]);
    if (error instanceof ChecksIncompleteError) {
      throw new CurationError('unavailable', error.message, false, error.retryAfterSeconds);
    }
    throw error;
  }
  if (messages.length > 0) throw invalidAmendment(kind, messages);

  await db.transaction(async (trx) => {
    const { session } = await lockOpenSession(trx, kind, 'amend', sessionId);
    const request = await insertRequest(trx, kind, amended);
    await insertEvent(trx, kind, {
      sessionId: session.id,
      requestId: request.id,
      eventName: 'AMEND',
      actor: payload.actor,
      additionalInformation: payload.text('additionalInformation'),
    });
    await touchSession(trx, kind, session.id, { requestId: request.id });
  });
}

// Reads for the curators' HAL lists.

export async function listOpenSessions(db: Db, kind: RequestKind, page: { page: number; size: number; sort: { column: string; direction: 'asc' | 'desc' }[] }): Promise<SessionPage> {
  const table = REGISTRATION_TABLES[kind].sessions;
  const query = db(table).select('*').where({ closed: false }).limit(page.size).offset(page.page * page.size);
  for (const order of page.sort) void query.orderBy(order.column, order.direction);
  void query.orderBy('id', 'asc');
  const [items, counted] = await Promise.all([
    query,
    db(table).count({ count: '*' }).where({ closed: false }).first(),
  ]);
  return { items, totalElements: Number(counted?.count ?? 0) };
}

export async function findSession(db: Db, kind: RequestKind, id: number): Promise<SessionRow | undefined> {
  return db(REGISTRATION_TABLES[kind].sessions).first('*').where({ id });
}

export async function findRequest(db: Db, kind: RequestKind, id: number): Promise<RequestRow | undefined> {
  return db(REGISTRATION_TABLES[kind].requests).first('*').where({ id });
}

export async function listSessionEvents(db: Db, kind: RequestKind, sessionId: number): Promise<EventRow[]> {
  return db(REGISTRATION_TABLES[kind].events).select('*').where({ sessionId }).orderBy('id');
}

export async function findEvent(db: Db, kind: RequestKind, id: number, eventName?: EventName): Promise<EventRow | undefined> {
  const query = db(REGISTRATION_TABLES[kind].events).first('*').where({ id });
  if (eventName) void query.where({ eventName });
  return query;
}
