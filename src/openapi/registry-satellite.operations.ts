/**
 * The satellite API (registry/satellite/): what a satellite resolver reads beyond the dataset file and the
 * change feed, and where it sends its usage counts. Additions, behind SATELLITE_TOKEN.
 */
import { envelopeOf } from './answers/envelope.schemas.js';
import { SAMPLE } from './examples.js';
import { errorAnswer, jsonAnswer, jsonBody, queryParam, type OperationSpec } from './operation.js';
import { arrayOf, flag, integer, object, orNull, text, type Schema } from './schema-kit.js';

const WHY = 'satellite resolvers: resolvers in other regions that follow this registry without its database';

const luiRules: Schema = orNull({ type: 'object', description: 'The canonical-LUI rules resolution applies (stripPrefix, luiPrefix, fold, zeroPad); null: none' });

const resource = object({
  id: integer(),
  mirId: text(),
  urlPattern: text(),
  name: text(),
  description: orNull(text()),
  official: flag(),
  providerCode: text(),
  sampleId: orNull(text()),
  resourceHomeUrl: text(),
  institution: { type: 'object' },
  location: { type: 'object' },
  deprecated: flag(),
  deprecationDate: orNull(text()),
  renderDeprecatedLanding: flag(),
  protectedUrls: flag(),
  renderProtectedLanding: flag(),
  authHelpUrl: orNull(text()),
  authHelpDescription: orNull(text()),
});

const namespace = object({
  id: integer(),
  prefix: text(),
  mirId: text(),
  name: text(),
  pattern: text(),
  sampleId: text(),
  namespaceEmbeddedInLui: flag(),
  deprecated: flag(),
  deprecationDate: orNull(text('As the dataset writes dates')),
  renderDeprecatedLanding: flag(),
  resources: arrayOf(resource),
  luiRules,
  synonyms: arrayOf(text()),
  suffixPassthrough: flag('Whether a LUI its pattern refuses may resolve as its longest matching leading part'),
  description: orNull(text('The namespace\'s description (the resolvers\' snapshot leaves it out; their MCP tools read it)')),
}, { optional: ['suffixPassthrough'] });

const NAMESPACES = envelopeOf(
  object({ registryVersion: integer('The registry version the namespaces were read at'), namespaces: arrayOf(namespace), missing: arrayOf(integer(), 'Ids no namespace has (deleted)') }),
);
const OVERRIDES = envelopeOf(object({ namespaces: arrayOf(object({ id: integer(), synonyms: arrayOf(text()), luiRules, suffixPassthrough: flag() }, { optional: ['luiRules', 'suffixPassthrough'] })) }));

const MEASUREMENT: Schema = {
  type: 'array',
  description: '[resourceId, up, counted, uncounted, notFoundStreak]: the resource\'s sample-URL checks of the last 7 days that found it working, that count (all but bot_blocked and skipped), that do not count, and 1 when its sample URL has been not_found for 3 days in a row (0 otherwise)',
  items: { type: 'integer', minimum: 0 },
  minItems: 5,
  maxItems: 5,
};
const MEASUREMENTS = envelopeOf(object({ measurements: arrayOf(MEASUREMENT, 'One entry per resource with sample checks in the window, in resource order; a resource without any is absent') }));

const USAGE_ENTRY = object({
  day: text('The UTC day counted, YYYY-MM-DD, within the last 30 days'),
  prefix: text('The namespace\'s prefix; an unknown one is ignored'),
  visits: integer('Resolutions counted', { minimum: 0, maximum: 1_000_000_000 }),
  visitors: arrayOf(text('A keyed visitor hash: 22 base64url characters', { pattern: '^[A-Za-z0-9_-]{22}$' }), 'At most 1,000 an entry, 10,000 a batch'),
});
const USAGE_BATCH: Schema = object({
  batchId: text('The batch\'s own id (16 to 64 letters, digits, - and _): a batch sent again with it is counted once', { pattern: '^[A-Za-z0-9_-]{16,64}$' }),
  entries: arrayOf(USAGE_ENTRY, 'At most 2,000'),
});
const USAGE_ANSWER = envelopeOf(
  object({ batchId: text(), counted: flag('Counted now'), duplicate: flag('Counted before (a retry): not counted again'), entries: integer(), ignored: integer('Entries of unknown prefixes') }),
);

const TODAY_EXAMPLE = '2026-01-02';
const BATCH_EXAMPLE = {
  batchId: '7d8f3c1e-4b2a-4c6d-9e0f-1a2b3c4d5e6f',
  entries: [{ day: TODAY_EXAMPLE, prefix: 'taxonomy', visits: 12, visitors: ['c2F0ZWxsaXRlLXZpc2l0b3'] }],
};

export const SATELLITE_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/satelliteApi/namespaces',
    tag: 'Satellites',
    summary: 'Namespaces by id, as a satellite resolver holds them',
    description:
      'The namespaces a change of the feed (/changes) touched, read again: each as the resolvers\' snapshot holds it (its resources with their institutions and locations, its canonical-LUI rules and synonyms), with the registry version they were read at. At most 200 ids a request.',
    addition: WHY,
    access: 'satellite',
    parameters: [queryParam('ids', 'Comma-separated namespace ids, 1 to 200', String(SAMPLE.namespaceId), { required: true, schema: { type: 'string', maxLength: 2200 } })],
    responses: {
      200: jsonAnswer('The namespaces', NAMESPACES, { apiVersion: '1.0', errorMessage: null, payload: { registryVersion: 123, namespaces: [], missing: [SAMPLE.namespaceId] } }),
      400: errorAnswer('No ids, ids that are not whole numbers, or more than 200', "'ids' must be comma-separated namespace ids (whole numbers), at most 200"),
    },
  },
  {
    methods: ['get'],
    path: '/satelliteApi/overrides',
    tag: 'Satellites',
    summary: 'What the dataset file lacks: synonyms, stored canonical-LUI rules, suffix passthrough',
    description: 'The namespaces that have synonyms, curator-stored canonical-LUI rules or suffix passthrough on, with them: a satellite loading the dataset file adds these.',
    addition: WHY,
    access: 'satellite',
    responses: {
      200: jsonAnswer('The overrides', OVERRIDES, { apiVersion: '1.0', errorMessage: null, payload: { namespaces: [{ id: SAMPLE.namespaceId, synonyms: ['NCBITaxon'] }] } }),
    },
  },
  {
    methods: ['get'],
    path: '/satelliteApi/measurements',
    tag: 'Satellites',
    summary: 'The link-check measurements the resolvers rank providers by',
    description:
      'Per resource, what its sample-URL link checks of the last 7 days say (the resolvers read the same from the database every 5 minutes): a satellite ranks its providers by them, so its recommendations, browser redirects and ETags are the resolvers\'. One compact entry per resource with checks in the window, so at most one per resource of the registry.',
    addition: WHY,
    access: 'satellite',
    responses: {
      200: jsonAnswer('The measurements', MEASUREMENTS, { apiVersion: '1.0', errorMessage: null, payload: { measurements: [[SAMPLE.resourceId, 3, 4, 1, 0]] } }),
    },
  },
  {
    methods: ['post'],
    path: '/satelliteApi/usage',
    tag: 'Satellites',
    summary: 'A satellite\'s usage counts, added to the usage statistics',
    description:
      'Visits and visitor hashes per day and namespace, added to the counters the resolvers flush to (and so to /statistics after the nightly rollup). A batch id is counted once: a satellite that lost the answer sends the batch again safely. At most 512 KiB, 2,000 entries and 10,000 visitor hashes a batch.',
    addition: WHY,
    access: 'satellite',
    requestBody: jsonBody('The batch', USAGE_BATCH, BATCH_EXAMPLE),
    responses: {
      200: jsonAnswer('Counted, or counted before', USAGE_ANSWER, {
        apiVersion: '1.0',
        errorMessage: null,
        payload: { batchId: BATCH_EXAMPLE.batchId, counted: true, duplicate: false, entries: 1, ignored: 0 },
      }),
      400: errorAnswer('A malformed batch: a missing field, a day out of range, a visitor that is not a hash, too many entries', "'entries.0.day' must be within the last 30 days"),
      413: errorAnswer('A body over 512 KiB', 'Request body is larger than the limit of 512 KiB'),
      415: errorAnswer('A body that is not JSON', "Unsupported Content-Type 'text/plain'; send application/json"),
    },
  },
];
