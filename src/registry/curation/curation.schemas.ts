import { compileOnFirstUse, type ErrorObject, type LazyValidator } from '../../lib/json-schema.js';
import type { RequestKind } from '../model/registration-records.js';
import { AMENDED_FIELD, EVENT_TEXT_FIELDS } from '../model/curation-operations.js';

/**
 * The bodies of the curation actions (registry-behaviour.md §2.7): a session-event envelope
 * `{apiVersion, payload: {additionalInformation, comment, rejectionReason, acceptanceReason,
 * <kind>RegistrationRequest}}`. Every text is optional (the reference fills in its default texts); an
 * amendment must carry the amended request, whose fields the registration checks validate afterwards.
 * Anything else (a number, a string, an array, no body at all) is refused with 400 before the session is
 * touched: rejecting or accepting, which close the session for good, take a well-formed request only.
 * Unknown properties are ignored, as the reference's `ignoreUnknown` does.
 */

// Texts of events are not limited to 255 characters as the reference's were, but they are bounded.
export const EVENT_TEXT_MAX_LENGTH = 10_000;

const ENVELOPE_MESSAGE = 'The request body must be a session-event envelope: {"apiVersion": "1.0", "payload": {...}}';

/** The JSON Schema of an action's body; `amendedField` for an amendment (the OpenAPI document shows these too). */
export function sessionEventSchema(amendedField?: string): object {
  const payloadProperties: Record<string, object> = {};
  for (const field of EVENT_TEXT_FIELDS) payloadProperties[field] = { type: ['string', 'null'], maxLength: EVENT_TEXT_MAX_LENGTH };
  if (amendedField) payloadProperties[amendedField] = { type: 'object' };
  return {
    type: 'object',
    required: amendedField ? ['apiVersion', 'payload'] : ['apiVersion'],
    properties: {
      // Never checked beyond its shape: clients send "1.0" or the number 1.
      apiVersion: { type: ['string', 'number'], maxLength: 20 },
      payload: amendedField
        ? { type: 'object', required: [amendedField], properties: payloadProperties }
        : { type: ['object', 'null'], properties: payloadProperties },
    },
  };
}

// Every schema compiled once, on its first use, on the one instance (json-schema.ts: no allErrors, the first
// problem is reported, and a hostile body costs one failed check).
const validateSessionEvent = compileOnFirstUse(sessionEventSchema());
const validateAmendment: Record<RequestKind, LazyValidator> = {
  prefix: compileOnFirstUse(sessionEventSchema(AMENDED_FIELD.prefix)),
  resource: compileOnFirstUse(sessionEventSchema(AMENDED_FIELD.resource)),
};

function describeError(error: ErrorObject | undefined, amendedField: string): string {
  if (!error) return ENVELOPE_MESSAGE;
  const path = error.instancePath.split('/').slice(1);
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  if (error.keyword === 'required' && (missing === amendedField || missing === 'payload')) {
    return `'${amendedField}' is required: the amended request`;
  }
  if (path.length === 0) return ENVELOPE_MESSAGE;
  if (path[0] === 'apiVersion') return `'apiVersion' must be a version such as "1.0"`;
  if (path.length === 1) return 'Payload must be a JSON object';
  const field = path[1]!;
  if (field === amendedField) return `'${field}' must be a JSON object: the amended request`;
  if (error.keyword === 'maxLength') return `'${field}' is too long (at most ${EVENT_TEXT_MAX_LENGTH} characters)`;
  return `'${field}' must be a string`;
}

export type SessionEventBody = { ok: true; payload: Record<string, unknown> | null } | { ok: false; message: string };

/** The envelope's payload (null when absent) when `body` is a well-formed request for the action, else why not. */
export function checkSessionEventBody(kind: RequestKind, amendment: boolean, body: unknown): SessionEventBody {
  const validate = amendment ? validateAmendment[kind] : validateSessionEvent;
  if (!validate(body)) return { ok: false, message: describeError(validate.errors?.[0], AMENDED_FIELD[kind]) };
  const payload = (body as { payload?: Record<string, unknown> | null }).payload;
  return { ok: true, payload: payload ?? null };
}
