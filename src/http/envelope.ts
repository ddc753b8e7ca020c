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
