/**
 * The reference's ServiceResponse envelope (registry-behaviour.md §0.1): `apiVersion`, `errorMessage`,
 * `payload`, in that order, nulls written. Every error of either area is answered in it.
 */
import { object, orNull, REFERENCE_ORDER, type Schema } from '../schema-kit.js';

const API_VERSION: Schema = { const: '1.0', description: 'Always "1.0"' };

/** A success envelope around `payload`. */
export function envelopeOf(payload: Schema, description?: string): Schema {
  return object({ apiVersion: API_VERSION, errorMessage: { type: 'null' }, payload }, { referenceOrder: true, description });
}

/** An envelope that may carry an error message with the payload (the reference's refusals with a payload). */
export function envelopeWithMessage(payload: Schema, description?: string): Schema {
  return object({ apiVersion: API_VERSION, errorMessage: orNull({ type: 'string' }), payload }, { referenceOrder: true, description });
}

export const ENVELOPE_SCHEMAS: Record<string, Schema> = {
  ErrorEnvelope: object(
    { apiVersion: API_VERSION, errorMessage: { type: 'string', description: 'What went wrong, for people' }, payload: {} },
    { referenceOrder: true, description: 'An error: the message, and a payload that is null unless the endpoint says otherwise' },
  ),
  HtmlPage: { type: 'string', description: 'An HTML document' },
};

// The request envelope's version is never checked, as the reference never checks it.
export const REQUEST_API_VERSION: Schema = { type: ['string', 'number'], maxLength: 20, description: 'Not checked: clients send "1.0" or 1' };

export { REFERENCE_ORDER };
