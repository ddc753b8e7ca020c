/**
 * Idempotency-Key for submissions: a client that retries a submission (a timeout, a dropped connection)
 * with the same key gets the first answer back instead of creating a second request. The key and its answer
 * are stored in the transaction that creates the request, so they exist exactly when the request does: a
 * refused or failed submission stores neither, and its retry runs again.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { invalid } from '../../../core/domain-error.js';

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
// Visible ASCII: what a header carries safely and a log shows as it is.
const KEY_SHAPE = /^[\x21-\x7e]+$/;

/** An answer as it goes out: a replay sends these exact bytes again, not the same JSON re-serialised. */
export interface RecordedAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface StoredAnswer extends RecordedAnswer {
  requestHash: string;
}

export interface IdempotencyClaim {
  /** The endpoint's name (keys of different endpoints never meet). */
  endpoint: string;
  key: string;
  requestHash: string;
}

/** The Idempotency-Key header: undefined when absent; 400 when empty, too long or not visible ASCII. */
export function readIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(',') : header).trim();
  if (value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_SHAPE.test(value)) {
    throw invalid(`Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`);
  }
  return value;
}

// Object keys sorted at every level: the same JSON sent with its fields in another order is the same request.
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the request body's canonical JSON. */
export function hashRequestBody(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The answer of a JSON body, serialised once: what is sent first is what is stored for a replay. */
export function jsonAnswer(status: number, body: unknown): RecordedAnswer {
  return { status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) };
}

export async function findStoredAnswer(db: Knex, endpoint: string, key: string): Promise<StoredAnswer | undefined> {
  return db('idempotency_keys')
    .first<StoredAnswer | undefined>({ requestHash: 'requestHash', status: 'responseStatus', contentType: 'responseContentType', body: 'responseBody' })
    .where({ endpoint, key });
}

/**
 * Claims the key inside the submitting transaction, with the answer the submission will give. Returns false
 * when the key is taken: a concurrent submission with the same key committed first (the insert waited for
 * it); the caller then rolls back and answers from the stored row.
 */
export async function claimIdempotencyKey(trx: Knex, claim: IdempotencyClaim, answer: RecordedAnswer): Promise<boolean> {
  const inserted = await trx('idempotency_keys')
    .insert({
      endpoint: claim.endpoint,
      key: claim.key,
      requestHash: claim.requestHash,
      responseStatus: answer.status,
      responseContentType: answer.contentType,
      responseBody: answer.body,
    })
    .onConflict(['endpoint', 'key'])
    .ignore()
    .returning('key');
  return inserted.length === 1;
}

/** The message of the 422 for a key already used with another request body. */
export const KEY_REUSED_MESSAGE =
  'This Idempotency-Key was already used for a different request; use a new key for a new request';
