import { errorEnvelope, envelope, type Envelope } from '../../../http/envelope.js';
import { HttpError } from '../../../http/http-error.js';
import type { RequestKind } from './validation-context.js';

/** Prefix endpoints answer the reference's ServiceResponseRegisterPrefixPayload (token always ''). */
export interface PrefixValidationPayload {
  comment: string;
  token: '';
}

/** Resource endpoints answer ServiceResponseRegisterResourceValidatePayload. */
export interface ResourceValidationPayload {
  comment: string;
}

export type ValidationEnvelope = Envelope<PrefixValidationPayload | ResourceValidationPayload>;

// The success answers never change: serialised once, written as they are.
const OK_JSON: Record<RequestKind, string> = {
  prefix: JSON.stringify(envelope({ comment: 'VALIDATION OK', token: '' })),
  resource: JSON.stringify(envelope({ comment: 'VALIDATION OK' })),
};

/** The 200 body of a field that passes, as JSON text. */
export function validationOkJson(kind: RequestKind): string {
  return OK_JSON[kind];
}

/** The 400 body of a field that fails: the first failing message and the failure comment. */
export function validationFailed(kind: RequestKind, message: string): ValidationEnvelope {
  return errorEnvelope<PrefixValidationPayload | ResourceValidationPayload>(
    message,
    kind === 'prefix' ? { comment: 'VALIDATION FAILED', token: '' } : { comment: 'VALIDATION FAILED' },
  );
}

/** Seconds a client should wait before retrying when the checks cannot be queued. */
export const CHECKS_RETRY_AFTER_SECONDS = 30;

/**
 * The answer when a URL check or regex test could not even be started (CheckUnavailableError): 503 with
 * Retry-After, in the error envelope: it is no verdict on the request, which the client should send again.
 */
export function checksUnavailable(): HttpError {
  return new HttpError(503, 'The URL and pattern checks are temporarily unavailable; please retry in a moment', {
    'Retry-After': String(CHECKS_RETRY_AFTER_SECONDS),
  });
}

export const PAYLOAD_REQUIRED = 'Payload is required';
