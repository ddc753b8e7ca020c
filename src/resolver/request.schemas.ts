/**
 * The JSON Schemas of the resolver's request bodies, for the OpenAPI document. The routes read these bodies
 * by hand (reverse.routes.ts, batch-request.ts), with the reference's own messages; a unit test
 * (test/unit/request-schemas.test.ts) sends the same bodies to both and expects the same verdicts, so the
 * schemas cannot drift from what the routes take.
 */
import { MAX_BATCH_ITEMS, MAX_ITEM_LENGTH } from './batch-request.js';
import { MAX_ACCESSION_LENGTH, MAX_SIMILARITY_URL_LENGTH, MAX_URL_LENGTH, type ReverseLookupEndpoint } from './reverse.routes.js';

// Never checked, as the reference never checks it.
const API_VERSION = { description: 'Not checked: clients send "1.0" or 1' };

/** The query of one reverse lookup: the envelope's payload, or one item of a reverse batch. */
export function reverseQuerySchema(endpoint: ReverseLookupEndpoint): object {
  return {
    type: 'object',
    required: ['url'],
    properties: {
      url: {
        type: 'string',
        // "http" first (any case) is also what makes it non-blank.
        pattern: '^[Hh][Tt][Tt][Pp]',
        maxLength: endpoint === 'bySimilarity' ? MAX_SIMILARITY_URL_LENGTH : MAX_URL_LENGTH,
        description: 'A provider URL, starting with http',
      },
      accession: { type: ['string', 'null'], maxLength: MAX_ACCESSION_LENGTH, description: 'The local id in the URL; guessed when absent or blank' },
      forceUrls: { type: ['boolean', 'null'], description: 'Accepted as the reference accepts it (hidden in its interface); default false' },
    },
  };
}

/** POST /reverse/byPrefix and /reverse/bySimilarity. */
export function reverseRequestSchema(endpoint: ReverseLookupEndpoint): object {
  return { type: 'object', required: ['payload'], properties: { apiVersion: API_VERSION, payload: reverseQuerySchema(endpoint) } };
}

/** POST /resolve/batch and /reverse/batch: `{apiVersion, payload: {<field>: [...]}}`. */
export function batchRequestSchema(field: string, item: object): object {
  return {
    type: 'object',
    required: ['payload'],
    properties: {
      apiVersion: API_VERSION,
      payload: {
        type: 'object',
        required: [field],
        properties: { [field]: { type: 'array', maxItems: MAX_BATCH_ITEMS, items: item } },
      },
    },
  };
}

export const RESOLVE_BATCH_SCHEMA = batchRequestSchema('compactIdentifiers', {
  description: `A compact identifier (a string of at most ${MAX_ITEM_LENGTH} characters); any other item is answered with status 400 in its place`,
});

export const REVERSE_BATCH_SCHEMA = batchRequestSchema('requests', {
  description: 'A byPrefix query ({url, accession, forceUrls}); an item that is not one is answered with status 400 in its place',
});
