import { badRequest } from '../http/http-error.js';

export const MAX_BATCH_ITEMS = 1000;
export const MAX_ITEM_LENGTH = 4096;

/**
 * Reads `{apiVersion, payload: {<field>: [...]}}` and returns the list, refusing anything that is not a
 * list of at most MAX_BATCH_ITEMS items with a message that says what is wrong. apiVersion is not
 * checked, as the reference never checks it.
 */
export function readBatchList(body: unknown, field: string): unknown[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest(`Invalid request: expected a JSON object {"apiVersion": "1.0", "payload": {"${field}": [...]}}`);
  }
  const payload = (body as { payload?: unknown }).payload;
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw badRequest(`Invalid payload: expected an object with the list '${field}'`);
  }
  const list = (payload as Record<string, unknown>)[field];
  if (!Array.isArray(list)) throw badRequest(`Invalid payload: '${field}' must be a list`);
  if (list.length > MAX_BATCH_ITEMS) {
    throw badRequest(`Invalid payload: '${field}' has ${list.length} items; the limit is ${MAX_BATCH_ITEMS} per request`);
  }
  return list;
}
