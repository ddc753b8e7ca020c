/**
 * The curators' operations on a registration session as the features that take them see them: the curation
 * feature implements CurationActions (its routes answer the API), and the curator desk is given it for its
 * request pages. The session-event payload and its default texts are the reference's (registry-behaviour.md §2.7).
 */
import { DomainError } from '../../core/domain-error.js';
import { tokenCurator, type Curator } from './curator-auth.js';
import type { PageRequest } from './paging.js';
import type { EventName, EventRow, RequestKind, RequestRow, SessionRow } from './registration-records.js';

/** The actor of events whose curator is not known (CURATOR_NAME's default). */
export const CURATOR_ACTOR = 'curator';

export type Operation = 'amend' | 'comment' | 'reject' | 'accept';

/**
 * A refusal of a curation operation: invalid (400), conflict (409, a closed session) or unavailable (503).
 * `commentPayload`: the envelope's payload is `{comment: null}` (the reference's answer for an unknown
 * session) rather than null.
 */
export class CurationError extends DomainError {
  constructor(
    kind: 'invalid' | 'conflict' | 'unavailable',
    message: string,
    readonly commentPayload = false,
    retryAfterSeconds?: number,
  ) {
    super(kind, message, { retryAfterSeconds, payload: commentPayload ? { comment: null } : undefined });
    this.name = 'CurationError';
  }
}

export const EVENT_TEXT_FIELDS = ['additionalInformation', 'comment', 'rejectionReason', 'acceptanceReason'] as const;
export type EventTextField = (typeof EVENT_TEXT_FIELDS)[number];

/** Where an amendment carries the amended request. */
export const AMENDED_FIELD: Record<RequestKind, string> = {
  prefix: 'prefixRegistrationRequest',
  resource: 'resourceRegistrationRequest',
};

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
  /** The curator acting, as the session event records them (their name). */
  actor: string;
  /** The curator acting, whole (curator-auth.ts): what the curation log records of them (an acceptance's new records). */
  curator: Curator;
}

/**
 * The texts of a payload that checkSessionEventBody (curation.schemas.ts) accepted, a blank or absent one
 * replaced by the reference's default text.
 */
export function readSessionEventPayload(payload: Record<string, unknown> | null, curator: Curator = tokenCurator(CURATOR_ACTOR)): SessionEventPayload {
  const raw = payload ?? {};
  const texts = {} as Record<EventTextField, string>;
  for (const field of EVENT_TEXT_FIELDS) {
    const value = raw[field];
    texts[field] = typeof value === 'string' && value.trim() !== '' ? value : EVENT_DEFAULTS[field];
  }
  return { raw, text: (field) => texts[field], actor: curator.name, curator };
}

export interface SessionPage {
  items: SessionRow[];
  totalElements: number;
}

/** What the curation routes and the desk are given: the curators' reads and operations on the registry's database. */
export interface CurationActions {
  listOpenSessions(kind: RequestKind, page: PageRequest): Promise<SessionPage>;
  findSession(kind: RequestKind, id: number): Promise<SessionRow | undefined>;
  findRequest(kind: RequestKind, id: number): Promise<RequestRow | undefined>;
  listSessionEvents(kind: RequestKind, sessionId: number): Promise<EventRow[]>;
  findEvent(kind: RequestKind, id: number, eventName?: EventName): Promise<EventRow | undefined>;
  /** Comment, reject, accept or amend a session (curation/curation.service.ts, acceptance.service.ts). */
  run(kind: RequestKind, operation: Operation, sessionId: number, payload: SessionEventPayload): Promise<void>;
}
