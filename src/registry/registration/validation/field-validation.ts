import { DomainError } from '../../../core/domain-error.js';
import { CheckBusyError, CheckUnavailableError } from '../../model/registration-checks.js';
import { validateForEndpoint, type ValidationEndpoint } from './endpoints.js';
import { InvalidPayloadError, normaliseRegistrationPayload, readEnvelopePayload } from '../../model/registration-payload.js';
import type { RequestKind } from '../../model/request-kind.js';
import type { RegistrationDeps } from './validation-context.js';

/** Seconds a client should wait before retrying when the checks cannot be queued. */
export const CHECKS_RETRY_AFTER_SECONDS = 30;
const CHECKS_UNAVAILABLE_MESSAGE = 'The URL and pattern checks are temporarily unavailable; please retry in a moment';

/** A field validator endpoint's verdict on a request body. */
export type FieldVerdict = { kind: 'payload-required' } | { kind: 'passed' } | { kind: 'failed'; message: string };

const PAYLOAD_REQUIRED: FieldVerdict = Object.freeze({ kind: 'payload-required' });
const PASSED: FieldVerdict = Object.freeze({ kind: 'passed' });

/**
 * Checks the field(s) of one validator endpoint in a request body. A payload field of a type no client sends
 * is a failed field like any other. Checks that could not run give no verdict: a DomainError, busy (the
 * requester has too many under way) or unavailable (the checks are too busy, or cannot be queued), either
 * with the time to wait before sending the same request again.
 */
export async function validateField(
  target: ValidationEndpoint,
  kind: RequestKind,
  body: unknown,
  deps: RegistrationDeps,
): Promise<FieldVerdict> {
  let message: string | null;
  try {
    const raw = readEnvelopePayload(body);
    if (raw === null) return PAYLOAD_REQUIRED;
    message = await validateForEndpoint(target, kind, normaliseRegistrationPayload(raw, target.normalise), deps);
  } catch (error) {
    if (error instanceof InvalidPayloadError) message = error.message;
    else throw checkFailure(error);
  }
  return message === null ? PASSED : { kind: 'failed', message };
}

/**
 * What a check that could not run becomes: busy (the requester has too many under way) or unavailable
 * (the checks are too busy, or cannot be queued), with the time to wait; any other error as it is.
 */
export function checkFailure(error: unknown): unknown {
  if (error instanceof CheckBusyError) {
    return new DomainError(error.status === 429 ? 'busy' : 'unavailable', error.message, { retryAfterSeconds: error.retryAfterSeconds, cause: error });
  }
  if (error instanceof CheckUnavailableError) {
    return new DomainError('unavailable', CHECKS_UNAVAILABLE_MESSAGE, { retryAfterSeconds: CHECKS_RETRY_AFTER_SECONDS, cause: error });
  }
  return error;
}
