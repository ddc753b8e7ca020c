/**
 * The rows of a registration: requests (one per version: an amendment adds a row), their session and the
 * session's events, for both kinds of request. Submission writes the first of each; curation adds events,
 * request versions and, at acceptance, the registry entries.
 */
import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { EventName, EventRow, PrefixRequestInsert, PrefixRequestRow, ResourceRequestInsert, ResourceRequestRow } from '../../db/tables.js';
import { hasText, type RegistrationPayload } from './registration-payload.js';
import type { RequestKind } from './request-kind.js';

export type { RequestKind } from './request-kind.js';
export type { EventName, EventRow, PrefixRequestRow, RequestRowBase, ResourceRequestRow, SessionRow } from '../../db/tables.js';

/** The tables of each kind (their rows are db/tables.ts's). */
export const REGISTRATION_TABLES = {
  prefix: {
    requests: 'prefix_registration_requests',
    sessions: 'prefix_registration_sessions',
    events: 'prefix_registration_session_events',
  },
  resource: {
    requests: 'resource_registration_requests',
    sessions: 'resource_registration_sessions',
    events: 'resource_registration_session_events',
  },
} as const satisfies Record<RequestKind, { requests: string; sessions: string; events: string }>;

/** What the reference stores for a prefix request sent without additional information. */
export const NO_ADDITIONAL_INFORMATION = '--- No additional information provided ---';

export type RequestRow = PrefixRequestRow | ResourceRequestRow;

/** The requester's handle on a session: 32 random bytes, base64url (43 characters). */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether a text could be a session token at all (anything else is answered 404 without a query). */
export function isTokenShaped(value: string): boolean {
  return TOKEN_SHAPE.test(value);
}

const text = (value: string | null): string => value ?? '';
const optional = (value: string | null): string | null => (hasText(value) ? value : null);
// Country codes are accepted in any case (the validator's rule); the registry stores them upper-case.
const country = (value: string | null): string => text(value).toUpperCase();

/**
 * The request row for a VALID payload (every required field has text). Optional texts that are blank are
 * stored as null; a prefix request without additional information gets the reference's placeholder text.
 */
export function requestRowFromPayload(kind: RequestKind, payload: RegistrationPayload): PrefixRequestInsert | ResourceRequestInsert {
  const common = {
    providerHomeUrl: text(payload.providerHomeUrl),
    providerName: text(payload.providerName),
    providerDescription: text(payload.providerDescription),
    providerLocation: country(payload.providerLocation),
    providerCode: text(payload.providerCode),
    providerUrlPattern: text(payload.providerUrlPattern),
    sampleId: text(payload.sampleId),
    institutionName: text(payload.institutionName),
    institutionDescription: text(payload.institutionDescription),
    institutionHomeUrl: text(payload.institutionHomeUrl),
    institutionLocation: country(payload.institutionLocation),
    institutionRorId: optional(payload.institutionRorId),
    requesterName: text(payload.requester?.name ?? null),
    requesterEmail: text(payload.requester?.email ?? null),
    protectedUrls: payload.protectedUrls,
    renderProtectedLanding: payload.renderProtectedLanding,
    authHelpUrl: payload.protectedUrls ? optional(payload.authHelpUrl) : null,
    authHelpDescription: payload.protectedUrls ? optional(payload.authHelpDescription) : null,
  };
  if (kind === 'resource') {
    return { ...common, namespacePrefix: text(payload.namespacePrefix), additionalInformation: optional(payload.additionalInformation) };
  }
  return {
    ...common,
    requestedPrefix: text(payload.requestedPrefix),
    name: text(payload.name),
    description: text(payload.description),
    idRegexPattern: text(payload.idRegexPattern),
    // jsonb: pg would send a JS array as a Postgres array.
    supportingReferences: JSON.stringify(payload.references.filter((reference) => hasText(reference))),
    namespaceEmbeddedInLui: payload.namespaceEmbeddedInLui,
    additionalInformation: optional(payload.additionalInformation) ?? NO_ADDITIONAL_INFORMATION,
  };
}

/** Inserts a version of a request; resolves to the stored row. */
export async function insertRequest(trx: Knex, kind: RequestKind, payload: RegistrationPayload): Promise<RequestRow> {
  const [row] = await trx(REGISTRATION_TABLES[kind].requests).insert(requestRowFromPayload(kind, payload)).returning('*');
  return row!;
}

export interface NewEvent {
  sessionId: number;
  requestId: number | null;
  eventName: EventName;
  actor: string;
  additionalInformation: string;
  comment?: string;
  rejectionReason?: string;
  acceptanceReason?: string;
}

export async function insertEvent(trx: Knex, kind: RequestKind, event: NewEvent): Promise<number> {
  const [row] = await trx(REGISTRATION_TABLES[kind].events).insert(event).returning('id');
  return row!.id;
}

/** The requested prefix (prefix requests) or the namespace joined (resource requests). */
export function prefixOf(request: RequestRow): string {
  return 'requestedPrefix' in request ? request.requestedPrefix : request.namespacePrefix;
}

export type SessionStatus = 'open' | 'accepted' | 'rejected';

/** Open until a REJECT or an ACCEPT event (the reference decides on the events, not on `closed`). */
export function statusFromEvents(events: readonly Pick<EventRow, 'eventName'>[]): SessionStatus {
  for (const event of events) {
    if (event.eventName === 'ACCEPT') return 'accepted';
    if (event.eventName === 'REJECT') return 'rejected';
  }
  return 'open';
}
