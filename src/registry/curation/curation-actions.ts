import type { Db } from '../../db/knex.js';
import { CurationError, type CurationActions } from '../model/curation-operations.js';
import type { RequestValidation } from '../model/request-validation.js';
import { acceptSession } from './acceptance.service.js';
import {
  amendSession,
  commentOnSession,
  findEvent,
  findRequest,
  findSession,
  listOpenSessions,
  listSessionEvents,
  rejectSession,
} from './curation.service.js';
import type { NotificationSettings } from '../model/notification-messages.js';

export interface CurationActionOptions {
  notifications: NotificationSettings;
  /** What an amendment is validated with; without it amendments answer 503. */
  validator?: RequestValidation;
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
            throw new CurationError('unavailable', 'Amendments cannot be validated right now (the registration checks are not configured)', false, 30);
          }
          return amendSession(db, options.validator, kind, sessionId, payload);
      }
    },
  };
}
