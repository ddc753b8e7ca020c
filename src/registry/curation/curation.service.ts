/**
 * The curators' operations on a registration session (registry-behaviour.md §2.7) other than acceptance
 * (acceptance.service.ts): comment, amend (re-validated here, unlike the reference), reject; and the reads
 * behind the curators' HAL lists. Each operation is one transaction that locks the session row, so two
 * curators acting on one session at once are served one after the other.
 */
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { HttpError } from '../../http/http-error.js';
import type { RegistrationValidator } from '../registration/registration-validator.js';
import { ChecksIncompleteError } from '../registration/submission/checked-validation.js';
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
import { AMENDED_FIELD, EVENT_TEXT_FIELDS, type EventTextField } from './curation.schemas.js';
import { writeOutbox } from '../../notifications/outbox.js';
import { rejectionMessages } from '../model/notification-messages.js';

/** The actor of events whose curator is not known (CURATOR_NAME's default). */
export const CURATOR_ACTOR = 'curator';

export type Operation = 'amend' | 'comment' | 'reject' | 'accept';

/**
 * A refusal of a curation operation. `commentPayload`: the envelope's payload is `{comment: null}` (the
 * reference's answer for an unknown session) rather than null.
 */
export class CurationError extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly commentPayload = false,
    headers: Record<string, string> = {},
  ) {
    super(status, message, headers, commentPayload ? { comment: null } : null);
    this.name = 'CurationError';
  }
}

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
  if (!SESSION_ID.test(rawId)) throw new CurationError(400, unknownSessionMessage(kind, operation, rawId), true);
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
  if (!session) throw new CurationError(400, unknownSessionMessage(kind, operation, String(sessionId)), true);
  if (session.closed) throw new CurationError(409, closedSessionMessage(kind, operation));
  const request = await trx(tables.requests).first('*').where({ id: session.requestId });
  return { session, request };
}

const EVENT_DEFAULTS: Record<EventTextField, string> = {
  additionalInformation: 'No additional information specified',
  comment: 'No comment provided',
  rejectionReason: 'No rejection reason provided',
  acceptanceReason: 'No acceptance reason provided',
};

/** The session-event payload: {additionalInformation, comment, acceptanceReason, rejectionReason, <kind>RegistrationRequest}. */
export interface SessionEventPayload {
  raw: Record<string, unknown>;
  text(field: EventTextField): string;
  /** The curator acting, as the event records them (curator-auth.ts). */
  actor: string;
}

/**
 * The texts of a payload that checkSessionEventBody (curation.schemas.ts) accepted, a blank or absent one
 * replaced by the reference's default text.
 */
export function readSessionEventPayload(payload: Record<string, unknown> | null, actor = CURATOR_ACTOR): SessionEventPayload {
  const raw = payload ?? {};
  const texts = {} as Record<EventTextField, string>;
  for (const field of EVENT_TEXT_FIELDS) {
    const value = raw[field];
    texts[field] = typeof value === 'string' && value.trim() !== '' ? value : EVENT_DEFAULTS[field];
  }
  return { raw, text: (field) => texts[field], actor };
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
    400,
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
  validator: RegistrationValidator,
  kind: RequestKind,
  sessionId: number,
  payload: SessionEventPayload,
): Promise<void> {
  if (!(await sessionExists(db, kind, sessionId))) throw new CurationError(400, unknownSessionMessage(kind, 'amend', String(sessionId)), true);
  const field = AMENDED_FIELD[kind];
  const rawRequest = payload.raw[field];
  if (!isPayloadObject(rawRequest)) throw new CurationError(400, `'${field}' is required: the amended request`, true);
  let amended;
  let messages: string[];
  try {
    amended = normaliseRegistrationPayload(rawRequest);
    messages = await validator.validateRequest(kind, amended);
  } catch (error) {
    if (error instanceof InvalidPayloadError) throw invalidAmendment(kind, [error.message]);
    if (error instanceof ChecksIncompleteError) {
      throw new CurationError(503, error.message, false, { 'Retry-After': String(error.retryAfterSeconds) });
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

export interface SessionPage {
  items: SessionRow[];
  totalElements: number;
}

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
