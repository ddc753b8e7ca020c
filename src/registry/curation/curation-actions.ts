import type { Db } from '../../db/knex.js';
import type { EventName, EventRow, RequestKind, RequestRow, SessionRow } from '../model/registration-records.js';
import type { RegistrationValidator } from '../registration/registration-validator.js';
import type { PageRequest } from '../model/paging.js';
import { acceptSession } from './acceptance.service.js';
import {
  amendSession,
  commentOnSession,
  CurationError,
  findEvent,
  findRequest,
  findSession,
  listOpenSessions,
  listSessionEvents,
  rejectSession,
  type Operation,
  type SessionEventPayload,
  type SessionPage,
} from './curation.service.js';
import type { NotificationSettings } from '../model/notification-messages.js';

/** What the curation routes are given: the curators' reads and operations on the registry's database. */
export interface CurationActions {
  listOpenSessions(kind: RequestKind, page: PageRequest): Promise<SessionPage>;
  findSession(kind: RequestKind, id: number): Promise<SessionRow | undefined>;
  findRequest(kind: RequestKind, id: number): Promise<RequestRow | undefined>;
  listSessionEvents(kind: RequestKind, sessionId: number): Promise<EventRow[]>;
  findEvent(kind: RequestKind, id: number, eventName?: EventName): Promise<EventRow | undefined>;
  /** Comment, reject, accept or amend a session (curation.service.ts, acceptance.service.ts). */
  run(kind: RequestKind, operation: Operation, sessionId: number, payload: SessionEventPayload): Promise<void>;
}

export interface CurationActionOptions {
  notifications: NotificationSettings;
  /** What an amendment is validated with; without it amendments answer 503. */
  validator?: RegistrationValidator;
}

export function createCurationActions(db: Db, options: CurationActionOptions): CurationActions {
  return {
    listOpenSessions: (kind, page) => listOpenSessions(db, kind, page),
    findSession: (kind, id) => findSession(db, kind, id),
    findRequest: (kind, id) => findRequest(db, kind, id),
    listSessionEvents: (kind, sessionId) => listSessionEvents(db, kind, sessionId),
    findEvent: (kind, id, eventName) => findEvent(db, kind, id, eventName),
    async run(kind, operation, sessionId, payload) {
      switch (operation) {
        case 'comment':
          return commentOnSession(db, kind, sessionId, payload);
        case 'reject':
          return rejectSession(db, kind, sessionId, payload);
        case 'accept':
          await acceptSession(db, kind, sessionId, payload, options.notifications);
          return;
        case 'amend':
          if (!options.validator) {
            throw new CurationError(503, 'Amendments cannot be validated right now (the registration checks are not configured)', false, { 'Retry-After': '30' });
          }
          return amendSession(db, options.validator, kind, sessionId, payload);
      }
    },
  };
}
