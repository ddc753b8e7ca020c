/**
 * The request schemas the OpenAPI document shows for bodies the routes read by hand (reverse lookups,
 * batches, the registration payload) say exactly what those readers take: the same bodies are given to
 * both, and each must be taken by both or refused by both.
 */
// The instance the routes' schemas are compiled on (curation.schemas.ts, maintenance.schemas.ts).
import { ajv } from '../../src/lib/json-schema.js';
import { normaliseRegistrationPayload, readEnvelopePayload } from '../../src/registry/model/registration-payload.js';
import { REGISTRATION_REQUEST_SCHEMA } from '../../src/registry/registration/validation/payload.schema.js';
import { readBatchList } from '../../src/resolver/batch-request.js';
import { RESOLVE_BATCH_SCHEMA, reverseRequestSchema } from '../../src/resolver/request.schemas.js';
import { readReverseQuery } from '../../src/resolver/reverse.routes.js';

/** The bodies on which the schema and the reader disagree (taken by one, refused by the other). */
function disagreements(schema: object, takes: (body: unknown) => boolean, bodies: readonly unknown[]): unknown[] {
  const validate = ajv.compile(schema);
  return bodies.filter((body) => validate(body) !== takes(body)).map((body) => ({ body, schema: validate(body), reader: takes(body) }));
}

const ANY_VALUES: readonly unknown[] = ['text', '', '   ', 1, 0, true, false, null, {}, [], ['a'], [1, 'b', null, true], [{}], [[]], { name: 'a' }];

describe('the reverse lookups\' request schemas', () => {
  const urls = ['https://www.ncbi.nlm.nih.gov/gene/100010', 'HTTP://EXAMPLE.ORG/1', 'http', 'ftp://example.org/1', ' http://example.org', '', '   ', 42, null, {}];
  const long = (n: number) => `https://example.org/${'a'.repeat(n - 20)}`;

  it.each(['byPrefix', 'bySimilarity'] as const)('%s: the schema takes what readReverseQuery takes', (endpoint) => {
    const payloads: unknown[] = [
      ...urls.map((url) => ({ url })),
      ...ANY_VALUES.map((accession) => ({ url: urls[0], accession })),
      ...ANY_VALUES.map((forceUrls) => ({ url: urls[0], forceUrls })),
      { url: long(2048) },
      { url: long(2049) },
      { url: long(4096) },
      { url: long(4097) },
      { url: urls[0], accession: 'a'.repeat(1024) },
      { url: urls[0], accession: 'a'.repeat(1025) },
      {},
      ...ANY_VALUES,
    ];
    const bodies = [...payloads.map((payload) => ({ apiVersion: '1.0', payload })), null, 'text', [], {}];
    const takes = (body: unknown) => {
      const payload = body !== null && typeof body === 'object' ? (body as { payload?: unknown }).payload : undefined;
      return typeof readReverseQuery(payload, endpoint) !== 'string';
    };
    expect(disagreements(reverseRequestSchema(endpoint), takes, bodies)).toEqual([]);
  });
});

describe('the batches\' request schema', () => {
  it('takes what readBatchList takes', () => {
    const lists: unknown[] = [[], ['taxonomy:9606'], ['a', 1, null, {}], new Array(1000).fill('a'), new Array(1001).fill('a'), 'a', 1, null, {}];
    const bodies: unknown[] = [
      ...lists.map((compactIdentifiers) => ({ apiVersion: '1.0', payload: { compactIdentifiers } })),
      { payload: { other: [] } },
      ...ANY_VALUES.map((payload) => ({ payload })),
      ...ANY_VALUES,
    ];
    const takes = (body: unknown) => {
      try {
        readBatchList(body, 'compactIdentifiers');
        return true;
      } catch {
        return false;
      }
    };
    expect(disagreements(RESOLVE_BATCH_SCHEMA, takes, bodies)).toEqual([]);
  });
});

describe('the registration request\'s schema', () => {
  const TEXT_FIELDS = [
    'name', 'description', 'requestedPrefix', 'namespacePrefix', 'providerHomeUrl', 'providerName', 'providerDescription', 'providerLocation',
    'providerCode', 'providerUrlPattern', 'sampleId', 'idRegexPattern', 'institutionName', 'institutionHomeUrl', 'institutionDescription',
    'institutionLocation', 'institutionRorId', 'authHelpUrl', 'authHelpDescription',
  ];
  const FLAGS = ['namespaceEmbeddedInLui', 'protectedUrls', 'renderProtectedLanding'];
  const LISTS = ['references', 'supportingReferences', 'additionalInformation'];
  const FLAG_VALUES = [...ANY_VALUES, 'true', 'false', 'yes'];

  it('takes what normaliseRegistrationPayload takes, field by field', () => {
    const payloads: unknown[] = [
      {},
      ...[...TEXT_FIELDS, ...LISTS].flatMap((field) => ANY_VALUES.map((value) => ({ [field]: value }))),
      ...FLAGS.flatMap((field) => FLAG_VALUES.map((value) => ({ [field]: value }))),
      ...ANY_VALUES.map((requester) => ({ requester })),
      ...ANY_VALUES.flatMap((value) => [{ requester: { name: value } }, { requester: { email: value } }]),
    ];
    const bodies = [...payloads.map((payload) => ({ apiVersion: '1.0', payload })), ...ANY_VALUES.map((payload) => ({ payload })), ...ANY_VALUES];
    const takes = (body: unknown) => {
      try {
        const payload = readEnvelopePayload(body);
        if (payload === null) return false;
        normaliseRegistrationPayload(payload);
        return true;
      } catch {
        return false;
      }
    };
    expect(disagreements(REGISTRATION_REQUEST_SCHEMA, takes, bodies)).toEqual([]);
  });
});
