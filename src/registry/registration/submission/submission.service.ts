/**
 * registerPrefix / registerResource once the request is known to be valid: the request, its session, the
 * START event, the notifications and (with an Idempotency-Key) the answer, in one transaction; and the
 * requester's view of a session by its token.
 */
import type { Db } from '../../../db/knex.js';
import { startMessages, writeOutbox, type NotificationSettings } from '../../curation/notification-outbox.js';
import type { RegistrationPayload } from '../validation/run-chains.js';
import { claimIdempotencyKey, findStoredAnswer, type IdempotencyClaim, type RecordedAnswer, type StoredAnswer } from './idempotency.js';
import {
  insertEvent,
  insertRequest,
  prefixOf,
  REGISTRATION_TABLES,
  statusFromEvents,
  type EventRow,
  type RequestKind,
  type SessionStatus,
} from './registration-records.js';

/** The reference's START event texts. */
const START_INFORMATION: Record<RequestKind, string> = {
  prefix: 'Source, Open API for prefix registration request submission',
  resource: 'Open API for resource registration request submission',
};

/** Submissions are public: no identity to record, as the reference's unauthenticated case. */
export const ANONYMOUS_ACTOR = 'ANONYMOUS';

export interface StoreRegistrationOptions {
  token: string;
  notifications: NotificationSettings;
  /** With an Idempotency-Key: the key and the answer to store with the request. */
  idempotency?: { claim: IdempotencyClaim; answer: RecordedAnswer };
}

export type StoreOutcome = { stored: true; sessionId: number } | { stored: false; reason: 'idempotency-key-taken' };

class KeyTaken extends Error {}

/** Stores a valid request, or nothing at all (an error or a key taken meanwhile rolls everything back). */
export async function storeRegistration(db: Db, kind: RequestKind, payload: RegistrationPayload, options: StoreRegistrationOptions): Promise<StoreOutcome> {
  const tables = REGISTRATION_TABLES[kind];
  try {
    const sessionId = await db.transaction(async (trx) => {
      // First, so that a concurrent submission with the same key waits here and then finds it taken.
      if (options.idempotency && !(await claimIdempotencyKey(trx, options.idempotency.claim, options.idempotency.answer))) {
        throw new KeyTaken();
      }
      const request = await insertRequest(trx, kind, payload);
      const [session] = await trx(tables.sessions).insert({ token: options.token, requestId: request.id }).returning('id');
      const id = session!.id;
      await insertEvent(trx, kind, {
        sessionId: id,
        requestId: request.id,
        eventName: 'START',
        actor: ANONYMOUS_ACTOR,
        additionalInformation: START_INFORMATION[kind],
      });
      await writeOutbox(trx, startMessages(kind, request, { id, token: options.token }, options.notifications));
      return id;
    });
    return { stored: true, sessionId };
  } catch (error) {
    if (error instanceof KeyTaken) return { stored: false, reason: 'idempotency-key-taken' };
    throw error;
  }
}

export interface PublicEvent {
  eventName: EventRow['eventName'];
  created: Date;
  comment?: string | null;
  rejectionReason?: string | null;
  acceptanceReason?: string | null;
}

/** What the requester may see of a session: never e-mail addresses, actors or curators' notes. */
export interface RegistrationStatus {
  kind: RequestKind;
  prefix: string;
  status: SessionStatus;
  created: Date;
  events: PublicEvent[];
}

/** The session behind a requester's token, or undefined. */
export async function readRegistrationStatus(db: Db, kind: RequestKind, token: string): Promise<RegistrationStatus | undefined> {
  const tables = REGISTRATION_TABLES[kind];
  const session = await db(tables.sessions).first('*').where({ token });
  if (!session) return undefined;
  const [request, events] = await Promise.all([
    db(tables.requests).first('*').where({ id: session.requestId }),
    db(tables.events).select('eventName', 'created', 'comment', 'rejectionReason', 'acceptanceReason').where({ sessionId: session.id }).orderBy('id'),
  ]);
  return {
    kind,
    prefix: prefixOf(request),
    status: statusFromEvents(events),
    created: session.created,
    events: events.map((event) => {
      const shown: PublicEvent = { eventName: event.eventName, created: event.created };
      if (event.eventName === 'COMMENT') shown.comment = event.comment;
      if (event.eventName === 'REJECT') shown.rejectionReason = event.rejectionReason;
      if (event.eventName === 'ACCEPT') shown.acceptanceReason = event.acceptanceReason;
      return shown;
    }),
  };
}

/** What the submission routes are given: submissions, their stored answers and their status, on the registry's database. */
export interface SubmissionStore {
  findStoredAnswer(endpoint: string, key: string): Promise<StoredAnswer | undefined>;
  storeRegistration(kind: RequestKind, payload: RegistrationPayload, options: StoreRegistrationOptions): Promise<StoreOutcome>;
  readRegistrationStatus(kind: RequestKind, token: string): Promise<RegistrationStatus | undefined>;
}

export function createSubmissionStore(db: Db): SubmissionStore {
  return {
    findStoredAnswer: (endpoint, key) => findStoredAnswer(db, endpoint, key),
    storeRegistration: (kind, payload, options) => storeRegistration(db, kind, payload, options),
    readRegistrationStatus: (kind, token) => readRegistrationStatus(db, kind, token),
  };
}
