/** The reference's ServiceResponse: exactly these three fields, in this order, nulls included. */
export interface Envelope<T> {
  apiVersion: '1.0';
  errorMessage: string | null;
  payload: T;
}

export function envelope<T>(payload: T): Envelope<T> {
  return { apiVersion: '1.0', errorMessage: null, payload };
}

export function errorEnvelope<T = null>(errorMessage: string, payload: T = null as T): Envelope<T> {
  return { apiVersion: '1.0', errorMessage, payload };
}

/**
 * The JSON text of a success envelope up to its payload, for the serialisers that write the payload's text
 * themselves (resolutions, reverse lookups, batches, the dataset): a `}` after the payload closes it.
 */
export const ENVELOPE_JSON_HEAD = '{"apiVersion":"1.0","errorMessage":null,"payload":';

/** What JSON.stringify(envelope(payload)) writes, given the payload's JSON text. */
export function envelopeJson(payloadJson: string): string {
  return `${ENVELOPE_JSON_HEAD}${payloadJson}}`;
}

/** What JSON.stringify(errorEnvelope(errorMessage, payload)) writes, given the payload's JSON text. */
export function errorEnvelopeJson(errorMessage: string, payloadJson = 'null'): string {
  return `{"apiVersion":"1.0","errorMessage":${JSON.stringify(errorMessage)},"payload":${payloadJson}}`;
}
