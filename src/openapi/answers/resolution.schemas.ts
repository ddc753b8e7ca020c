/**
 * The resolver's answers (resolver-behaviour.md §2.1, §3.1): the reference's ResolvedResource,
 * ParsedCompactIdentifier and ReverseResolutionMatch with their fields in its order, and our additions (the
 * batches, the health checks).
 */
import { addition, arrayOf, flag, integer, NULLABLE_DATE, number, object, orNull, ref, text, type Schema } from '../schema-kit.js';
import { PAYLOAD_EXTENSIONS } from '../../resolver/payload-extensions.js';
import { envelopeOf, envelopeWithMessage } from './envelope.schemas.js';

const EXTENSION_WHY: Readonly<Record<string, string>> = {
  canonicalCompactIdentifier: 'the compact identifier a non-canonical local id (case, padding, prefix spelling) was resolved as; present only then',
  prefixSynonym: 'the prefix synonym the request named its namespace by, as written (parsedCompactIdentifier names the canonical prefix); present only then',
  luiSuffix:
    "the part of the local id passed through to the providers, as typed (`/0.210831.2033` for dandi:000027/0.210831.2033), on a namespace with suffix passthrough on whose pattern refused the whole local id: parsedCompactIdentifier's localId is the part before it, and each provider URL ends with it, percent-encoded; present only then",
};

/** The payload's fields the reference does not have (payload-extensions.ts), after parsedCompactIdentifier, present only when they apply. */
const PAYLOAD_EXTENSION_PROPERTIES: Record<string, Schema> = Object.fromEntries(
  PAYLOAD_EXTENSIONS.map(({ name }) => {
    const why = EXTENSION_WHY[name];
    if (!why) throw new Error(`No description of the payload extension ${name} in openapi/answers/resolution.schemas.ts`);
    return [name, addition(text(), why)];
  }),
);
const EXTENSION_NAMES = Object.keys(PAYLOAD_EXTENSION_PROPERTIES);

const location = object({ countryCode: orNull(text()), countryName: orNull(text()) }, { referenceOrder: true });

export const RESOLUTION_SCHEMAS: Record<string, Schema> = {
  LocationRecord: location,
  InstitutionRecord: object(
    { id: integer(), name: text(), homeUrl: text(), description: orNull(text()), rorId: orNull(text()), location: ref('LocationRecord') },
    { referenceOrder: true, description: 'The reference\'s Institution with its location' },
  ),
  Recommendation: object(
    {
      recommendationIndex: integer('0 to 100; higher is better', { minimum: 0, maximum: 100 }),
      recommendationExplanation: text(),
    },
    { referenceOrder: true },
  ),
  ResolvedResource: object(
    {
      id: integer('The resource id (0 for a namespace without a resource)'),
      mirId: orNull(text()),
      providerCode: text('Often empty'),
      compactIdentifierResolvedUrl: text('The provider URL with the local id in it'),
      description: orNull(text()),
      institution: ref('InstitutionRecord'),
      location: ref('LocationRecord'),
      official: flag(),
      resourceHomeUrl: text(),
      recommendation: ref('Recommendation'),
      namespacePrefix: orNull(text()),
      deprecatedNamespace: flag(),
      namespaceDeprecationDate: NULLABLE_DATE,
      deprecatedResource: flag(),
      resourceDeprecationDate: NULLABLE_DATE,
      renderDeprecatedLanding: flag(),
      protectedUrls: flag(),
      renderProtectedLanding: flag(),
      authHelpUrl: orNull(text()),
      authHelpDescription: orNull(text()),
    },
    { referenceOrder: true, description: 'A provider of the identifier (the reference\'s ResolvedResource)' },
  ),
  ParsedCompactIdentifier: object(
    {
      providerCode: orNull(text()),
      namespace: orNull(text()),
      localId: orNull(text()),
      rawRequest: text(),
      namespaceEmbeddedInLui: flag(),
      deprecatedNamespace: flag(),
      renderDeprecatedLanding: flag(),
      namespaceDeprecationDate: NULLABLE_DATE,
    },
    { referenceOrder: true },
  ),
  ResolvePayload: object(
    {
      resolvedResources: orNull(arrayOf(ref('ResolvedResource'))),
      parsedCompactIdentifier: orNull(ref('ParsedCompactIdentifier')),
      ...PAYLOAD_EXTENSION_PROPERTIES,
    },
    { referenceOrder: true, optional: EXTENSION_NAMES, description: 'The reference\'s ResponseResolvePayload (with our additions after it); both its fields null on a failure' },
  ),
  Resolution: envelopeWithMessage(ref('ResolvePayload'), 'A resolution: errorMessage is null on success, and both payload fields are null on a failure'),
  ReverseMatch: object(
    {
      prefix: text(),
      possible_resolver_url: orNull(text('The reference names this possible_idorg_url: the resolver URL of the guessed compact identifier')),
      possible_resolver_curie: orNull(text('The reference names this possible_idorg_curie')),
      lui_pattern_match: flag('Whether the accession matches the namespace\'s local id pattern'),
      similarity_score: number('0 to 100'),
    },
    { referenceOrder: true, description: 'The reference\'s ReverseResolutionMatch (snake_case), the resolver\'s own public URL in place of identifiers.org' },
  ),
  ReverseByPrefixAnswer: envelopeOf(ref('ReverseMatch')),
  ReverseBySimilarityAnswer: envelopeOf(arrayOf(ref('ReverseMatch'), 'At most 5 matches, best first')),
  BatchResolutionItem: addition(
    object(
      {
        compactIdentifier: orNull(text('The item as sent (cut to 100 characters when too long; null when not a string)')),
        status: integer('The HTTP status the single GET would have answered'),
        errorMessage: orNull(text()),
        resolvedResources: orNull(arrayOf(ref('ResolvedResource'))),
        parsedCompactIdentifier: orNull(ref('ParsedCompactIdentifier')),
        ...PAYLOAD_EXTENSION_PROPERTIES,
      },
      { optional: EXTENSION_NAMES, description: 'One item of a batch, answered as the single GET /{compactId} would answer it' },
    ),
    'batches of resolutions',
  ),
  BatchResolutionAnswer: envelopeOf(object({ results: arrayOf(ref('BatchResolutionItem'), 'In the order of the request') })),
  ReverseBatchItem: addition(
    object(
      {
        url: orNull(text('The item\'s URL as sent (null when it has none)')),
        status: integer('The HTTP status the single byPrefix lookup would have answered (200, 204 or 400)'),
        errorMessage: orNull(text()),
        match: orNull(ref('ReverseMatch')),
      },
      { description: 'One item of a reverse batch, answered as POST /reverse/byPrefix would answer it' },
    ),
    'batches of reverse lookups',
  ),
  ReverseBatchAnswer: envelopeOf(object({ results: arrayOf(ref('ReverseBatchItem'), 'In the order of the request') })),
  JsonRpcAnswer: {
    anyOf: [
      {
        type: 'object',
        required: ['jsonrpc'],
        properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, result: {}, error: { type: 'object' } },
        additionalProperties: true,
      },
      { type: 'array', items: { type: 'object', additionalProperties: true } },
    ],
    description: 'A JSON-RPC 2.0 answer (result or error), or a batch of them',
  },
  Liveness: envelopeOf(object({ status: { const: 'ok' } })),
  Readiness: envelopeWithMessage(
    object(
      {
        status: { enum: ['ok', 'degraded', 'unavailable'] },
        reason: text('Why it is degraded or unavailable'),
        checks: { type: 'object', additionalProperties: text('"ok" or "failing: <reason>"'), description: 'Each dependency\'s state' },
      },
      { optional: ['reason'] },
    ),
    'Ready (200, ok or degraded) or not (503, unavailable, with the reason in errorMessage)',
  ),
};
