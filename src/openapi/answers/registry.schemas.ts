/**
 * The registry area's other answers: registration, validation and ROR lookups (registry-behaviour.md §2),
 * the resolver dataset (§3), usage statistics (§4), schema.org, search, and the link checks' health API.
 */
import { addition, arrayOf, flag, integer, NULLABLE_DATE, number, object, orNull, ref, text, type Schema } from '../schema-kit.js';
import { envelopeOf, envelopeWithMessage } from './envelope.schemas.js';

const usageFigures = object(
  { nb_uniq_visitors: integer('Distinct clients'), nb_visits: integer('Resolutions') },
  { referenceOrder: true, description: 'The reference\'s NamespaceStatistics (Matomo\'s names)' },
);

const checkState = orNull(
  object({ urlKind: { enum: ['sample', 'home'] }, outcome: text(), httpStatus: orNull(integer()), checkedAt: NULLABLE_DATE }, { referenceOrder: true }),
);

const resourceHealth = object(
  {
    resourceId: integer(),
    mirId: orNull(text()),
    namespacePrefix: text(),
    currentState: object({ sample: checkState, home: checkState }, { referenceOrder: true }),
    reliability: number('0 to 100, as the resolver ranks providers with it'),
    sampleChecks: object(
      {
        windowDays: integer(),
        up: integer(),
        counted: integer(),
        notCounted: integer(),
        notFoundStreakDays: integer(),
        notFoundStreak: flag(),
      },
      { referenceOrder: true },
    ),
    lastSuccess: checkState,
    lastFailure: checkState,
    recentChecks: arrayOf(
      object(
        {
          urlKind: { enum: ['sample', 'home'] },
          url: text(),
          checkedAt: NULLABLE_DATE,
          outcome: text(),
          httpStatus: orNull(integer()),
          latencyMs: orNull(integer()),
          finalUrl: orNull(text()),
          detail: orNull(text()),
          runId: orNull(integer()),
        },
        { referenceOrder: true },
      ),
    ),
  },
  { referenceOrder: true },
);

const datasetResource = object(
  {
    id: integer(),
    mirId: orNull(text()),
    urlPattern: text(),
    name: text(),
    description: orNull(text()),
    official: flag(),
    providerCode: orNull(text()),
    sampleId: orNull(text()),
    resourceHomeUrl: orNull(text()),
    institution: ref('InstitutionRecord'),
    location: ref('LocationRecord'),
    deprecated: flag(),
    deprecationDate: NULLABLE_DATE,
    deprecationOfflineDate: NULLABLE_DATE,
    renderDeprecatedLanding: flag(),
    deprecationStatement: orNull(text()),
    protectedUrls: flag(),
    renderProtectedLanding: flag(),
    authHelpUrl: orNull(text()),
    authHelpDescription: orNull(text()),
  },
  { referenceOrder: true },
);

const datasetNamespace = object(
  {
    id: integer(),
    prefix: text(),
    mirId: orNull(text()),
    name: text(),
    pattern: text(),
    description: orNull(text()),
    created: NULLABLE_DATE,
    modified: NULLABLE_DATE,
    resources: arrayOf(datasetResource),
    sampleId: orNull(text()),
    namespaceEmbeddedInLui: flag(),
    deprecated: flag(),
    deprecationDate: NULLABLE_DATE,
    deprecationOfflineDate: NULLABLE_DATE,
    renderDeprecatedLanding: flag(),
    deprecationStatement: orNull(text()),
    infoOnPostmortemAccess: orNull(text()),
    successor: orNull(text('The successor\'s prefix')),
  },
  { referenceOrder: true },
);

const ebiField = object({ name: text(), value: orNull(text()) }, { referenceOrder: true });

export const REGISTRY_SCHEMAS: Record<string, Schema> = {
  SubmissionAnswer: envelopeWithMessage(
    object({ comment: text(), token: text('The requester\'s handle on the request (its status page and replies); empty on a refusal') }, { referenceOrder: true }),
    'The reference\'s ServiceResponseRegisterPrefixPayload',
  ),
  RegistrationStatus: addition(
    envelopeOf(
      object(
        {
          requestedPrefix: text('Prefix requests'),
          namespacePrefix: text('Resource requests'),
          status: { enum: ['open', 'accepted', 'rejected'] },
          created: NULLABLE_DATE,
          events: arrayOf(
            object(
              {
                eventName: { enum: ['START', 'AMEND', 'COMMENT', 'REJECT', 'ACCEPT'] },
                created: NULLABLE_DATE,
                author: { enum: ['curator', 'requester'] },
                comment: orNull(text()),
                rejectionReason: orNull(text()),
                acceptanceReason: orNull(text()),
              },
              { optional: ['author', 'comment', 'rejectionReason', 'acceptanceReason'] },
            ),
            'The public history: no e-mail addresses, actors or curators\' notes',
          ),
        },
        { optional: ['requestedPrefix', 'namespacePrefix'] },
      ),
    ),
    'the requester\'s view of a request, by its token',
  ),
  PrefixSynonyms: addition(
    { type: 'object', additionalProperties: arrayOf(text()), description: 'Prefix to its synonyms, both sorted' },
    'the registry\'s prefix synonyms, in the shape the importer reads (npm run registry:import -- --synonyms)',
  ),
  PrefixValidationAnswer: envelopeWithMessage(
    object(
      {
        comment: { enum: ['VALIDATION OK', 'VALIDATION FAILED'] },
        token: { const: '' },
        warnings: addition(
          arrayOf(text()),
          'validateRequestedPrefix: the other registries (loaded by curators) that already have the requested prefix, one sentence each; present only then, and the answer stays VALIDATION OK',
        ),
      },
      { referenceOrder: true, optional: ['warnings'] },
    ),
    'VALIDATION OK (200), or VALIDATION FAILED (400) with the first failing message in errorMessage',
  ),
  ResourceValidationAnswer: envelopeWithMessage(
    object({ comment: { enum: ['VALIDATION OK', 'VALIDATION FAILED'] } }),
    'VALIDATION OK (200), or VALIDATION FAILED (400) with the first failing message in errorMessage',
  ),
  UsageStatistics: envelopeOf(usageFigures),
  UsageSeries: addition(
    envelopeOf(
      arrayOf(
        object(
          {
            date: text('period=day: YYYY-MM-DD'),
            month: text('period=month: YYYY-MM'),
            nb_uniq_visitors: integer(),
            nb_visits: integer(),
          },
          { optional: ['date', 'month'] },
        ),
      ),
    ),
    'a time series with ?period=day|month&from&to',
  ),
  SchemaOrgMetadata: {
    type: 'object',
    required: ['@context', '@type'],
    properties: { '@context': {}, '@type': {} },
    additionalProperties: true,
    description: 'schema.org JSON-LD (a DataCatalog for the platform, a Dataset for a namespace)',
  },
  ResourceHealth: addition(envelopeOf(resourceHealth), 'the link checks\' findings'),
  NamespaceHealth: addition(envelopeOf(object({ namespacePrefix: text(), resources: arrayOf(resourceHealth) }, { referenceOrder: true })), 'the link checks\' findings'),
  HealthSummary: addition(
    envelopeOf(
      object(
        {
          latestChecks: {
            type: 'object',
            additionalProperties: { type: 'object', additionalProperties: integer() },
            description: 'Per URL kind (sample, home), the latest check of every resource counted by outcome',
          },
          lastRunFinishedAt: NULLABLE_DATE,
        },
        { referenceOrder: true },
      ),
    ),
    'the link checks\' findings',
  ),
  SearchSuggestions: addition(
    object(
      {
        query: text(),
        total: integer(),
        offset: integer(),
        results: arrayOf(object({ prefix: text(), name: text(), mirId: orNull(text()), deprecated: flag(), page: text('The namespace page\'s path') })),
      },
      { referenceOrder: true },
    ),
    'the registry search of the pages\' search boxes',
  ),
  EbiSearchAnswer: object(
    {
      hitCount: integer(),
      entries: arrayOf(object({ id: text(), source: { const: 'identifiers_registry' }, fields: { type: 'object', additionalProperties: arrayOf(text()) } })),
      facets: arrayOf({}),
    },
    { referenceOrder: true, description: 'An EBI Search REST answer, for the reference\'s web app' },
  ),
  EbiSearchDataset: object(
    {
      name: text(),
      description: text(),
      entry_count: integer(),
      entries: arrayOf(object({ cross_references: arrayOf({}), fields: arrayOf(ebiField) }, { referenceOrder: true })),
    },
    { referenceOrder: true, description: 'The reference\'s EBI Search export' },
  ),
  ResolverDataset: envelopeOf(
    object({ namespaces: arrayOf(datasetNamespace) }),
    'The whole registry as the reference\'s getResolverDataset writes it',
  ),
  ExportIndex: addition(
    envelopeOf(
      object(
        {
          formats: arrayOf(
            object(
              {
                name: text(),
                url: text(),
                mediaType: text(),
                description: text(),
                size: orNull(integer('Bytes, once a build has written it')),
                gzipSize: orNull(integer()),
                etag: orNull(text()),
              },
              { referenceOrder: true },
            ),
          ),
          build: orNull(
            object(
              { registryVersion: integer(), namespaceCount: integer(), resourceCount: integer(), builtAt: text(), lastModified: text() },
              { referenceOrder: true },
            ),
          ),
        },
        { referenceOrder: true },
      ),
    ),
    'the registry in other formats',
  ),
  RorInstitution: object(
    { id: integer('0 when found at ROR rather than in the registry'), name: text(), homeUrl: text(), description: text(), rorId: orNull(text()), location: ref('LocationRecord') },
    { referenceOrder: true, description: 'The reference\'s bare Institution JSON (no envelope)' },
  ),
};
