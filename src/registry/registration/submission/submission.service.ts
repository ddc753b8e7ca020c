/**
 * registerPrefix / registerResource: an Idempotency-Key's replay, or the request read and validated, then
 * the request, its session, the START event, the notifications and (with an Idempotency-Key) the answer
 * stored in one transaction; and the requester's view of a session by its token, and their answers.
 */
import type { Db } from '../../../db/knex.js';
import { writeOutbox } from '../../../notifications/outbox.js';
import { startMessages, type NotificationSettings } from '../../model/notification-messages.js';
import type { RegistrationValidator } from '../registration-validator.js';
import { InvalidPayloadError, normaliseRegistrationPayload, readEnvelopePayload, type RegistrationPayload } from '../../model/registration-payload.js';
import { ChecksIncompleteError, type RequestFailure } from '../../model/request-validation.js';
import type { RegistrationQuota } from './daily-quota.js';
import { checkReply, recordRequesterReply, REQUESTER_ACTOR, UNKNOWN_TOKEN_MESSAGE, type ReplySource } from './requester-reply.js';
import { DomainError } from '../../../core/domain-error.js';
import { claimIdempotencyKey, findStoredAnswer, hashRequestBody, type IdempotencyClaim, type RecordedAnswer, type StoredAnswer } from './idempotency.js';
import {
  insertEvent,
  insertRequest,
  isTokenShaped,
  newSessionToken,
  prefixOf,
  REGISTRATION_TABLES,
  statusFromEvents,
  type EventRow,
  type RequestKind,
  type SessionStatus,
} from '../../model/registration-records.js';

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
  /** COMMENT events: whether a curator or the requester wrote it. */
  author?: 'curator' | 'requester';
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
  /** What the status page shows of the current version of the request (the JSON status leaves it out). */
  request: RequestSummary;
}

/**
 * The request as its status page recalls it, so that the requester can review what was sent (issue 23
 * item 6); the e-mail address only masked (personal data).
 */
export interface RequestSummary {
  /** Prefix requests: the namespace's name. */
  name: string | null;
  /** Prefix requests: the pattern every identifier matches. */
  idRegexPattern: string | null;
  /** Prefix requests: whether the identifiers start with the prefix. */
  namespaceEmbeddedInLui: boolean;
  sampleId: string;
  providerName: string;
  providerCode: string;
  providerHomeUrl: string;
  providerUrlPattern: string;
  providerLocation: string;
  institutionName: string;
  institutionHomeUrl: string;
  institutionLocation: string;
  requesterName: string;
  maskedRequesterEmail: string;
}

/** `r•••@e•••.org`: enough for the requester to recognise their address, not enough to read it. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${email.charAt(0)}•••@${host.charAt(0)}•••${tld}`;
}

/** The session behind a requester's token, or undefined. */
export async function readRegistrationStatus(db: Db, kind: RequestKind, token: string): Promise<RegistrationStatus | undefined> {
  const tables = REGISTRATION_TABLES[kind];
  const session = await db(tables.sessions).first('*').where({ token });
  if (!session) return undefined;
  const [request, events] = await Promise.all([
    db(tables.requests).first('*').where({ id: session.requestId }),
    db(tables.events).select('eventName', 'created', 'actor', 'comment', 'rejectionReason', 'acceptanceReason').where({ sessionId: session.id }).orderBy('id'),
  ]);
  return {
    kind,
    prefix: prefixOf(request),
    status: statusFromEvents(events),
    created: session.created,
    request: {
      name: 'name' in request ? request.name : null,
      idRegexPattern: 'idRegexPattern' in request ? request.idRegexPattern : null,
      namespaceEmbeddedInLui: 'namespaceEmbeddedInLui' in request ? request.namespaceEmbeddedInLui : false,
      sampleId: request.sampleId,
      providerName: request.providerName,
      providerCode: request.providerCode,
      providerHomeUrl: request.providerHomeUrl,
      providerUrlPattern: request.providerUrlPattern,
      providerLocation: request.providerLocation,
      institutionName: request.institutionName,
      institutionHomeUrl: request.institutionHomeUrl,
      institutionLocation: request.institutionLocation,
      requesterName: request.requesterName,
      maskedRequesterEmail: maskEmail(request.requesterEmail),
    },
    events: events.map((event) => {
      const shown: PublicEvent = { eventName: event.eventName, created: event.created };
      if (event.eventName === 'COMMENT') {
        shown.author = event.actor === REQUESTER_ACTOR ? 'requester' : 'curator';
        shown.comment = event.comment;
      }
      if (event.eventName === 'REJECT') shown.rejectionReason = event.rejectionReason;
      if (event.eventName === 'ACCEPT') shown.acceptanceReason = event.acceptanceReason;
      return shown;
    }),
  };
}

export interface SubmissionServiceDeps {
  db: Db;
  validator: RegistrationValidator;
  notifications: NotificationSettings;
  /** The requests one address may file per day; none: unlimited. */
  quota?: RegistrationQuota;
}

export interface Submission {
  kind: RequestKind;
  /** The endpoint's name: Idempotency-Keys of different endpoints never meet. */
  endpoint: string;
  /** The request body (the envelope), as parsed JSON. */
  body: unknown;
  idempotencyKey?: string;
  /** The requester's address, which the regex checks are shared fairly between and the daily quota counts. */
  client?: string;
  /** Sent by a curator (the curator token, a desk session): no daily quota. */
  curator?: boolean;
}

/** Why nothing was stored, when the client's request is what has to change. */
export type SubmissionRefusal =
  | { problem: 'malformed-envelope'; message: string }
  | { problem: 'no-payload' }
  | { problem: 'invalid'; messages: readonly string[]; providerName: string | null; failures: readonly RequestFailure[] }
  /** The Idempotency-Key was used before for another request body. */
  | { problem: 'key-reused' };

export type SubmissionOutcome =
  /** Stored; `answer` is what was recorded for the key's replays. */
  | { kind: 'accepted'; answer: RecordedAnswer }
  /** The Idempotency-Key's first answer, to be sent again as it was. */
  | { kind: 'replayed'; answer: RecordedAnswer }
  | ({ kind: 'refused' } & SubmissionRefusal)
  /** A check did not answer: nothing was stored, the client sends the same request again. */
  | { kind: 'incomplete'; error: ChecksIncompleteError }
  /** The address has filed as many requests today as it may: nothing was stored (a rate-limited DomainError). */
  | { kind: 'over-quota'; error: DomainError };

/** The outcome of a refusing quota step, or undefined when it lets the request through. */
async function overQuota(step: Promise<void> | undefined): Promise<SubmissionOutcome | undefined> {
  try {
    await step;
    return undefined;
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'rate-limited') return { kind: 'over-quota', error };
    throw error;
  }
}

function replay(stored: StoredAnswer, requestHash: string): SubmissionOutcome {
  return stored.requestHash === requestHash ? { kind: 'replayed', answer: stored } : { kind: 'refused', problem: 'key-reused' };
}

export class SubmissionService {
  constructor(private readonly deps: SubmissionServiceDeps) {}

  /**
   * Submits a registration request. `acceptedAnswer` is the answer an accepted request gets: it is stored
   * with the request, for the replays of its Idempotency-Key, so it is made before the transaction commits.
   */
  async submitRegistration(submission: Submission, acceptedAnswer: (token: string) => RecordedAnswer): Promise<SubmissionOutcome> {
    const { db, notifications } = this.deps;
    const { kind, endpoint, idempotencyKey: key } = submission;
    const requestHash = key === undefined ? '' : hashRequestBody(submission.body);
    if (key !== undefined) {
      const stored = await findStoredAnswer(db, endpoint, key);
      if (stored) return replay(stored, requestHash);
    }
    const { client } = submission;
    const quota = submission.curator || client === undefined ? undefined : this.deps.quota;
    // Before the checks: an address that has used up its day costs no URL check.
    const usedUp = await overQuota(quota?.refuseWhenUsedUp(client!));
    if (usedUp) return usedUp;
    const checked = await this.readValidRequest(submission);
    if (!('payload' in checked)) return checked;
    const oneTooMany = await overQuota(quota?.take(client!));
    if (oneTooMany) return oneTooMany;

    const token = newSessionToken();
    const answer = acceptedAnswer(token);
    const outcome = await storeRegistration(db, kind, checked.payload, {
      token,
      notifications,
      idempotency: key === undefined ? undefined : { claim: { endpoint, key, requestHash }, answer },
    });
    if (outcome.stored) return { kind: 'accepted', answer };
    // A concurrent submission with the same key committed first: answer as its retry would be answered.
    const stored = key === undefined ? undefined : await findStoredAnswer(db, endpoint, key);
    if (!stored) throw new Error('idempotency key taken but not found');
    return replay(stored, requestHash);
  }

  /** The session behind a requester's token, or undefined (a text that cannot be a token costs no query). */
  registrationStatus(kind: RequestKind, token: string): Promise<RegistrationStatus | undefined> {
    return isTokenShaped(token) ? readRegistrationStatus(this.deps.db, kind, token) : Promise.resolve(undefined);
  }

  /** The session behind a token of either kind (the status page's address does not say which). */
  async findRegistrationStatus(token: string): Promise<RegistrationStatus | undefined> {
    return (await this.registrationStatus('prefix', token)) ?? (await this.registrationStatus('resource', token));
  }

  /**
   * Records the requester's answer to the curators on the open session of `token`. DomainError: invalid
   * (blank or too long), not-found (no such token), conflict (the session is closed).
   */
  async replyAsRequester(kind: RequestKind, token: string, comment: unknown, source: ReplySource): Promise<void> {
    const text = checkReply(comment);
    if (!isTokenShaped(token)) throw new DomainError('not-found', UNKNOWN_TOKEN_MESSAGE);
    await recordRequesterReply(this.deps.db, kind, token, text, source, this.deps.notifications);
  }

  private async readValidRequest({ kind, body, client }: Submission): Promise<{ payload: RegistrationPayload } | SubmissionOutcome> {
    let raw: Record<string, unknown> | null;
    try {
      raw = readEnvelopePayload(body);
    } catch (error) {
      if (error instanceof InvalidPayloadError) return { kind: 'refused', problem: 'malformed-envelope', message: error.message };
      throw error;
    }
    if (raw === null) return { kind: 'refused', problem: 'no-payload' };
    let payload: RegistrationPayload;
    let failures: RequestFailure[];
    try {
      payload = normaliseRegistrationPayload(raw);
      failures = await this.deps.validator.validateRequestByField(kind, payload, client);
    } catch (error) {
      if (error instanceof ChecksIncompleteError) return { kind: 'incomplete', error };
      if (!(error instanceof InvalidPayloadError)) throw error;
      return { kind: 'refused', problem: 'invalid', messages: [error.message], providerName: null, failures: [] };
    }
    if (failures.length > 0) {
      return { kind: 'refused', problem: 'invalid', messages: failures.map((f) => f.message), providerName: payload.providerName, failures };
    }
    return { payload };
  }
}
