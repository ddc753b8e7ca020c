/**
 * The registry's other JSON endpoints: the resolver dataset, usage statistics, schema.org metadata, search
 * and the link checks' health API.
 */
import { PUBLIC_REGISTRY, PUBLIC_RESOLVER, REFERENCE_DATE_EXAMPLE, RESOLVED_RESOURCE, SAMPLE } from './examples.js';
import { EXPORT_FORMATS } from '../dataset/export-formats.js';
import { errorAnswer, jsonAnswer, NO_CONTENT, pathParam, queryParam, type OperationSpec } from './operation.js';
import { ref } from './schema-kit.js';
import { DATASET_VERSION_ANSWERS, DATASET_VERSION_PARAMETER } from './registry-changes.operations.js';

const { institution, location } = RESOLVED_RESOURCE;

const DATASET_EXAMPLE = {
  apiVersion: '1.0',
  errorMessage: null,
  payload: {
    namespaces: [
      {
        id: 1,
        prefix: 'chebi',
        mirId: 'MIR:00000002',
        name: 'ChEBI',
        pattern: '^CHEBI:\\d+$',
        description: 'Chemical Entities of Biological Interest (ChEBI) is a freely available dictionary of molecular entities focused on small chemical compounds.',
        created: REFERENCE_DATE_EXAMPLE,
        modified: REFERENCE_DATE_EXAMPLE,
        resources: [
          {
            id: 3,
            mirId: 'MIR:00100009',
            urlPattern: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}',
            name: 'ChEBI (Chemical Entities of Biological Interest)',
            description: 'ChEBI (Chemical Entities of Biological Interest)',
            official: true,
            providerCode: 'ebi',
            sampleId: '36927',
            resourceHomeUrl: 'https://www.ebi.ac.uk/chebi/',
            institution,
            location,
            deprecated: false,
            deprecationDate: null,
            deprecationOfflineDate: null,
            renderDeprecatedLanding: false,
            deprecationStatement: null,
            protectedUrls: false,
            renderProtectedLanding: false,
            authHelpUrl: null,
            authHelpDescription: null,
          },
        ],
        sampleId: '36927',
        namespaceEmbeddedInLui: true,
        deprecated: false,
        deprecationDate: null,
        deprecationOfflineDate: null,
        renderDeprecatedLanding: false,
        deprecationStatement: null,
        infoOnPostmortemAccess: null,
        successor: null,
      },
    ],
  },
};

const CHECK_STATE = { urlKind: 'sample', outcome: 'up', httpStatus: 200, checkedAt: REFERENCE_DATE_EXAMPLE };
const RESOURCE_HEALTH = {
  resourceId: SAMPLE.resourceId,
  mirId: SAMPLE.resourceMirId,
  namespacePrefix: SAMPLE.prefix,
  currentState: { sample: CHECK_STATE, home: { ...CHECK_STATE, urlKind: 'home' } },
  reliability: 100,
  sampleChecks: { windowDays: 30, up: 30, counted: 30, notCounted: 0, notFoundStreakDays: 14, notFoundStreak: false },
  lastSuccess: CHECK_STATE,
  lastFailure: null,
  recentChecks: [
    {
      urlKind: 'sample',
      url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606',
      checkedAt: REFERENCE_DATE_EXAMPLE,
      outcome: 'up',
      httpStatus: 200,
      latencyMs: 412,
      finalUrl: null,
      detail: null,
      runId: 12,
    },
  ],
};

/** The JSON exports' examples: the JSON-LD context and the prefix map. */
const EXPORT_EXAMPLES: Readonly<Record<string, unknown>> = {
  'application/ld+json': { '@context': { taxonomy: `${PUBLIC_RESOLVER}/taxonomy:` } },
  'application/json': { taxonomy: `${PUBLIC_RESOLVER}/taxonomy:` },
};

const LINK_HEALTH = 'Link health';
const PREFIX = pathParam('prefix', 'The namespace\'s prefix (any case)', SAMPLE.prefix);

/** Additions on the current dataset, for satellite resolvers (README, Satellite resolvers). */
const DATASET_SATELLITE_HEADERS = {
  'X-Registry-Version': { description: 'Addition: the registry version the dataset was built at (current dataset only)', schema: { type: 'integer' } },
  'X-Registry-Change-Cursor': {
    description: 'Addition: the change-feed cursor (GET /changes?since=) after which every change not in this dataset comes (current dataset only)',
    schema: { type: 'string' },
  },
  'X-Registry-Database': { description: 'Addition: the database the dataset was built from; another one is another registry (current dataset only)', schema: { type: 'string' } },
} as const;

export const DATA_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/resolutionApi/getResolverDataset',
    tag: 'Dataset',
    summary: 'The whole registry, as the resolvers load it',
    description:
      'Every namespace and resource, deprecated ones included, in the reference\'s field order. Sent from a prebuilt file (gzip when the client takes it), with a strong ETag and Last-Modified: If-None-Match or If-Modified-Since get 304. Counted as a whole-registry download.',
    parameters: [
      queryParam('rewriteForEmbeddedPrefixes', 'true: URL patterns and sample ids of namespaces whose local ids embed the prefix are rewritten, as the reference does', 'false', {
        schema: { type: 'string', enum: ['true', 'false'] },
      }),
      DATASET_VERSION_PARAMETER,
    ],
    responses: {
      200: {
        ...jsonAnswer('The registry', ref('ResolverDataset'), DATASET_EXAMPLE),
        headers: DATASET_SATELLITE_HEADERS,
      },
      304: { description: 'The copy the client has is current', headers: DATASET_SATELLITE_HEADERS },
      ...DATASET_VERSION_ANSWERS,
      503: errorAnswer('No dataset is built yet and none could be built in time (with Retry-After)', 'The dataset is being built; retry in a few seconds'),
    },
  },
  {
    methods: ['get'],
    path: '/resolutionApi/getPrefixSynonyms',
    tag: 'Dataset',
    summary: 'Every namespace\'s prefix synonyms, as the importer\'s synonyms file',
    addition: 'prefix synonyms (names a namespace answers to besides its prefix); the reference dataset is unchanged',
    description:
      'Prefix to its synonyms, both sorted; namespaces without synonyms are left out. Read from the registry with a strong ETag of the text: If-None-Match gets 304.',
    responses: {
      200: jsonAnswer('The synonyms', ref('PrefixSynonyms'), { pubmed: ['pmid'], taxonomy: ['NCBITaxon', 'ncbi.taxon', 'taxon'] }),
      304: { description: 'The copy the client has is current' },
    },
  },
  {
    methods: ['get'],
    path: '/resolutionApi/export',
    tag: 'Dataset',
    summary: 'The registry\'s exports: each format with its address, media type and size, and the build they come from',
    addition: 'the registry in other formats (JSON-LD context, prefix map, TSV and CSV, Turtle and N-Triples)',
    responses: {
      200: jsonAnswer('The exports', ref('ExportIndex'), {
        apiVersion: '1.0',
        errorMessage: null,
        payload: {
          formats: [
            {
              name: 'registry.ttl',
              url: `${PUBLIC_REGISTRY}/resolutionApi/export/registry.ttl`,
              mediaType: 'text/turtle; charset=utf-8',
              description: 'The registry in Turtle',
              size: 412345,
              gzipSize: 61234,
              etag: '"sha256-abc"',
            },
          ],
          build: { registryVersion: 12, namespaceCount: 22, resourceCount: 60, builtAt: '2026-01-01T00:00:00.000Z', lastModified: '2026-01-01T00:00:00.000Z' },
        },
      }),
    },
  },
  {
    methods: ['get'],
    path: '/resolutionApi/export/{format}',
    tag: 'Dataset',
    summary: 'One export of the registry, prebuilt with the dataset',
    description: 'Sent from a prebuilt file (gzip when the client takes it), with a strong ETag and Last-Modified: If-None-Match or If-Modified-Since get 304. Counted as a whole-registry download.',
    addition: 'the registry in other formats',
    parameters: [pathParam('format', 'The export\'s name', 'registry.ttl', { type: 'string', enum: EXPORT_FORMATS.map((f) => f.name) })],
    responses: {
      200: {
        description: 'The export (Content-Disposition: attachment)',
        content: [...new Set(EXPORT_FORMATS.map((f) => f.mediaType.split(';')[0]!))].map((type) => ({
          type,
          schema: type.endsWith('json') ? { type: 'object', additionalProperties: true } : { type: 'string' },
          ...(EXPORT_EXAMPLES[type] === undefined ? {} : { example: EXPORT_EXAMPLES[type] }),
        })),
      },
      304: { description: 'The copy the client has is current' },
      404: errorAnswer('No such export', "No export named 'nothing'; the exports are context.jsonld, prefixmap.json, ..."),
      503: errorAnswer('No export is built yet and none could be built in time (with Retry-After)', 'The dataset is being built; retry in a few seconds'),
    },
  },
  {
    methods: ['get'],
    path: '/statistics/namespace/{prefix}',
    tag: 'Statistics',
    summary: 'A namespace\'s resolutions over the previous calendar month, or a time series',
    description: 'Without `period`, the reference\'s figures for the previous month. With `period=day|month` (and optional `from`, `to`: YYYY-MM-DD), one point per day or month.',
    parameters: [
      PREFIX,
      queryParam('period', 'Addition: a time series by day or by month', 'month', { schema: { type: 'string', enum: ['day', 'month'] } }),
      queryParam('from', 'The series\' first day (YYYY-MM-DD); 30 days or 12 months before `to` by default', '2024-01-01', { schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 } }),
      queryParam('to', 'The series\' last day (YYYY-MM-DD); today by default', '2024-03-31', { schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 } }),
    ],
    responses: {
      200: {
        description: 'The figures (the reference\'s), or the series (with period)',
        content: [
          {
            type: 'application/json',
            schema: { anyOf: [ref('UsageStatistics'), ref('UsageSeries')] },
            example: { apiVersion: '1.0', errorMessage: null, payload: { nb_uniq_visitors: 123, nb_visits: 456 } },
          },
        ],
      },
      400: errorAnswer('A bad period, from or to', "'period' must be 'day' or 'month'"),
      404: errorAnswer('No such namespace', "No namespace with prefix 'nosuchprefix'"),
    },
  },
  {
    methods: ['get'],
    path: '/schemaOrgApi/getMetadataForPlatform',
    tag: 'Schema.org',
    summary: 'The platform as a schema.org DataCatalog',
    responses: {
      200: jsonAnswer('JSON-LD', ref('SchemaOrgMetadata'), { '@context': 'https://schema.org', '@type': 'DataCatalog', name: 'Compact identifier registry', url: PUBLIC_REGISTRY }, 'application/ld+json'),
    },
  },
  {
    methods: ['get'],
    path: '/schemaOrgApi/getMetadataForNamespacePrefix/{prefix}',
    tag: 'Schema.org',
    summary: 'A namespace as a schema.org Dataset, by prefix',
    parameters: [PREFIX],
    responses: {
      200: jsonAnswer('JSON-LD', ref('SchemaOrgMetadata'), { '@context': 'https://schema.org', '@type': 'Dataset', name: 'Taxonomy', url: `${PUBLIC_REGISTRY}/registry/taxonomy` }, 'application/ld+json'),
      404: errorAnswer('No such namespace', "Schema.org metadata for namespace with prefix 'nosuchprefix' COULD NOT BE PROVIDED, the namespace DOES NOT exist"),
    },
  },
  {
    methods: ['get'],
    path: '/schemaOrgApi/getMetadataForNamespace/{id}',
    tag: 'Schema.org',
    summary: 'A namespace as a schema.org Dataset, by id',
    parameters: [pathParam('id', 'The namespace\'s id', SAMPLE.namespaceId)],
    responses: {
      200: jsonAnswer('JSON-LD', ref('SchemaOrgMetadata'), { '@context': 'https://schema.org', '@type': 'Dataset', name: 'Taxonomy', url: `${PUBLIC_REGISTRY}/registry/taxonomy` }, 'application/ld+json'),
      404: errorAnswer('No such namespace', "Schema.org metadata for namespace with ID '99999' COULD NOT BE PROVIDED, the namespace DOES NOT exist"),
    },
  },
  {
    methods: ['get'],
    path: '/registry/search',
    tag: 'Search',
    summary: 'Search the registry (the search boxes\' suggestions)',
    addition: 'the registry search of the pages',
    parameters: [
      queryParam('q', 'What to look for in prefixes, names and descriptions', 'taxon'),
      queryParam('size', 'How many results (1 to 100; 10 by default)', 10, { schema: { type: 'integer', minimum: 1 } }),
      queryParam('page', 'Zero-based page', 0, { schema: { type: 'integer', minimum: 0 } }),
    ],
    responses: {
      200: jsonAnswer('The matching namespaces, best first', ref('SearchSuggestions'), {
        query: 'taxon',
        total: 1,
        offset: 0,
        results: [{ prefix: 'taxonomy', name: 'Taxonomy', mirId: 'MIR:00000006', deprecated: false, page: '/registry/taxonomy' }],
      }),
    },
  },
  {
    methods: ['get'],
    path: '/ebisearch/ws/rest/identifiers_registry',
    tag: 'Search',
    summary: 'The registry search in EBI Search\'s REST shape (for the reference\'s web app)',
    parameters: [
      queryParam('query', 'Lucene-style text: *:* for everything', 'taxon*'),
      queryParam('fields', 'The fields of each entry, comma-separated', 'name,prefix,description'),
      queryParam('size', 'How many entries (15 by default)', 15, { schema: { type: 'integer', minimum: 0 } }),
      queryParam('start', 'Zero-based offset', 0, { schema: { type: 'integer', minimum: 0 } }),
      queryParam('format', 'Only JSON is served', 'json'),
    ],
    responses: {
      200: jsonAnswer('The hits', ref('EbiSearchAnswer'), {
        hitCount: 1,
        entries: [{ id: '28', source: 'identifiers_registry', fields: { name: ['Taxonomy'], prefix: ['taxonomy'], description: ['The taxonomy contains the relationships between all living forms.'] } }],
        facets: [],
      }),
      400: errorAnswer('A format other than JSON', "Format 'xml' is not served; use format=JSON"),
    },
  },
  {
    methods: ['get'],
    path: '/registryInsightApi/getEbiSearchDataset',
    tag: 'Search',
    summary: 'The registry\'s export for EBI Search',
    description: 'Counted as a whole-registry download.',
    parameters: [queryParam('start', 'Only namespaces changed since this day (yyyy-MM-dd)', '2019-01-01', { schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 } })],
    responses: {
      200: jsonAnswer('The export', ref('EbiSearchDataset'), {
        name: 'Compact identifier registry',
        description: 'The registry of namespaces and their providers',
        entry_count: 1,
        entries: [
          {
            cross_references: [],
            fields: [
              { name: 'id', value: '28' },
              { name: 'prefix', value: 'taxonomy' },
              { name: 'landing_page', value: `${PUBLIC_RESOLVER}/taxonomy` },
            ],
          },
        ],
      }),
      204: NO_CONTENT,
      400: errorAnswer('A start that is not a day', "'start' must be a date written yyyy-MM-dd"),
    },
  },
  {
    methods: ['get'],
    path: '/healthApi/resources/{id}',
    tag: LINK_HEALTH,
    summary: 'A resource\'s link checks: its state, reliability and recent checks',
    addition: 'the link checks\' findings',
    parameters: [pathParam('id', 'The resource\'s id', SAMPLE.resourceId)],
    responses: {
      200: jsonAnswer('Its health (cacheable for a minute)', ref('ResourceHealth'), { apiVersion: '1.0', errorMessage: null, payload: RESOURCE_HEALTH }),
      400: errorAnswer('Not a number', "Resource id 'abc' is not a number"),
      404: errorAnswer('No such resource', "No resource with id '99999'"),
    },
  },
  {
    methods: ['get'],
    path: '/healthApi/namespaces/{prefix}',
    tag: LINK_HEALTH,
    summary: 'The link checks of every resource of a namespace',
    addition: 'the link checks\' findings',
    parameters: [PREFIX],
    responses: {
      200: jsonAnswer('Their health', ref('NamespaceHealth'), { apiVersion: '1.0', errorMessage: null, payload: { namespacePrefix: SAMPLE.prefix, resources: [RESOURCE_HEALTH] } }),
      404: errorAnswer('No such namespace', "No namespace with prefix 'nosuchprefix'"),
    },
  },
  {
    methods: ['get'],
    path: '/healthApi/summary',
    tag: LINK_HEALTH,
    summary: 'The latest check of every resource, counted by outcome',
    addition: 'the link checks\' findings',
    responses: {
      200: jsonAnswer('The counts', ref('HealthSummary'), {
        apiVersion: '1.0',
        errorMessage: null,
        payload: { latestChecks: { sample: { up: 950, down: 12 }, home: { up: 980, down: 3 } }, lastRunFinishedAt: REFERENCE_DATE_EXAMPLE },
      }),
    },
  },
];
