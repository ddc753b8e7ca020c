import { envelope, errorEnvelope, type Envelope } from '../../../http/envelope.js';
import { formatReferenceDate } from '../../../lib/dates.js';
import { hasText } from '../../model/registration-payload.js';
import { jsonAnswer, type RecordedAnswer } from './idempotency.js';
import type { RequestKind } from '../../model/registration-records.js';
import type { RegistrationStatus } from './submission.service.js';

/** The reference's ServiceResponseRegisterPrefixPayload; the token is the requester's status handle. */
export interface SubmissionPayload {
  comment: string;
  token: string;
}

/** The reference's comment, for resource requests too (sic). */
export const SUBMISSION_COMMENT = 'No comments on your prefix registration request';

export function submissionAccepted(token: string): Envelope<SubmissionPayload> {
  return envelope({ comment: SUBMISSION_COMMENT, token });
}

/** The 200 of an accepted submission, serialised once: what is sent first is what a replay sends again. */
export function acceptedAnswer(token: string): RecordedAnswer {
  return jsonAnswer(200, submissionAccepted(token));
}

/**
 * The 400 of an invalid request: every failure message, one per line, inside the reference's sentence
 * (registry-behaviour.md §2.6).
 */
export function submissionRefused(kind: RequestKind, messages: readonly string[], providerName: string | null): Envelope<SubmissionPayload> {
  const joined = messages.join('\n');
  const errorMessage =
    kind === 'prefix'
      ? `INVALID Prefix registration request due to '${joined}'`
      : `INVALID Resource registration request for resource name '${hasText(providerName) ? providerName : '--- Resource Name NOT SPECIFIED ---'}', due to '${joined}'`;
  return errorEnvelope<SubmissionPayload>(errorMessage, { comment: SUBMISSION_COMMENT, token: '' });
}

export interface StatusPayload {
  requestedPrefix?: string;
  namespacePrefix?: string;
  status: RegistrationStatus['status'];
  created: string | null;
  events: Record<string, unknown>[];
}

/** GET .../status/{token}: the request's prefix, its state and its public history. */
export function presentStatus(status: RegistrationStatus): Envelope<StatusPayload> {
  const head = status.kind === 'prefix' ? { requestedPrefix: status.prefix } : { namespacePrefix: status.prefix };
  return envelope({
    ...head,
    status: status.status,
    created: formatReferenceDate(status.created),
    events: status.events.map((event) => ({ ...event, created: formatReferenceDate(event.created) })),
  });
}

export { UNKNOWN_TOKEN_MESSAGE } from './requester-reply.js';
