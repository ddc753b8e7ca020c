import { errorEnvelope, envelope, type Envelope } from '../../../http/envelope.js';
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

/**
 * The 200 body of a requested prefix that passes but collides with other registries' prefixes (issue 15
 * item 6): the reference's answer, then the trailing `warnings` (present only when there are some).
 */
export function validationOkWithWarnings(warnings: readonly string[]): Envelope<PrefixValidationPayload & { warnings: readonly string[] }> {
  return envelope({ comment: 'VALIDATION OK', token: '', warnings });
}

/** The 400 body of a field that fails: the first failing message and the failure comment. */
export function validationFailed(kind: RequestKind, message: string): ValidationEnvelope {
  return errorEnvelope<PrefixValidationPayload | ResourceValidationPayload>(
    message,
    kind === 'prefix' ? { comment: 'VALIDATION FAILED', token: '' } : { comment: 'VALIDATION FAILED' },
  );
}

export const PAYLOAD_REQUIRED = 'Payload is required';
