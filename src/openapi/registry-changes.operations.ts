/**
 * The registry's history: the change feed (registry/changes/) and the dated datasets with their diff
 * (registry/dataset/dated-dataset.service.ts). All additions to the reference's interface.
 */
import { envelopeOf } from './answers/envelope.schemas.js';
import { PUBLIC_REGISTRY } from './examples.js';
import { errorAnswer, jsonAnswer, queryParam, type OperationSpec } from './operation.js';
import { addition, arrayOf, integer, object, orNull, text, type Schema } from './schema-kit.js';

const CURSOR_EXAMPLE = 'djEuNzQ1LjEyMw';
const VERSION: Schema = { type: 'string', pattern: '^(\\d{4}-\\d{2}-\\d{2}|current)$', maxLength: 10 };

const change = object(
  {
    cursor: text('Resume after this change'),
    version: integer('The change\'s position in the registry change log'),
    changedAt: text('When it was committed (ISO 8601)'),
    entity: { type: 'string', enum: ['namespace', 'institution', 'location'] },
    entityId: text('The namespace\'s or institution\'s id, or the location\'s country code'),
    prefix: orNull(text('The namespace\'s prefix at the time (for a resource, its namespace\'s)')),
    operation: { type: 'string', enum: ['created', 'updated', 'deleted', 'changed'] },
    record: orNull({ type: 'string', enum: ['namespace', 'resource', 'institution', 'location'] }),
    recordId: orNull(text('The id of the row written (a resource\'s for a resource)')),
    title: text(),
    url: orNull(text('The namespace\'s page, the institution\'s HAL item')),
  },
  { referenceOrder: true },
);

const CHANGE_PAGE = addition(
  envelopeOf(object({ changes: arrayOf(change), next: text('The cursor to ask with next'), more: { type: 'boolean' } }, { referenceOrder: true })),
  'a feed of every committed registry change',
);

const fieldChange = object({ field: text('A dataset field; nested ones dotted (institution.name)'), from: {}, to: {} }, { referenceOrder: true });
const namespaceSummary = { prefix: text(), mirId: {}, name: {} };
const resourceSummary = { namespacePrefix: text(), mirId: {}, providerCode: {}, name: {} };
const changes = (summary: Record<string, Schema>) => ({
  added: arrayOf(object(summary, { referenceOrder: true })),
  removed: arrayOf(object(summary, { referenceOrder: true })),
  changed: arrayOf(object({ ...summary, changes: arrayOf(fieldChange) }, { referenceOrder: true })),
});
const versionInfo = object(
  { version: text(), builtAt: text(), registryVersion: integer(), namespaceCount: integer(), resourceCount: integer() },
  { referenceOrder: true },
);
const DATASET_DIFF = addition(
  envelopeOf(
    object(
      {
        from: versionInfo,
        to: versionInfo,
        namespaces: object(changes(namespaceSummary), { referenceOrder: true }),
        resources: object(changes(resourceSummary), { referenceOrder: true }),
      },
      { referenceOrder: true },
    ),
  ),
  'what changed between two dataset versions',
);

const CHANGE_EXAMPLE = {
  cursor: CURSOR_EXAMPLE,
  version: 123,
  changedAt: '2026-01-02T10:00:00.000Z',
  entity: 'namespace',
  entityId: '7',
  prefix: 'go',
  operation: 'updated',
  record: 'namespace',
  recordId: '7',
  title: 'namespace go updated',
  url: `${PUBLIC_REGISTRY}/registry/go`,
};

const SINCE = queryParam('since', 'A cursor from an earlier answer (`next`, or a change\'s `cursor`); absent or empty: the start of the feed', CURSOR_EXAMPLE, {
  schema: { type: 'string', maxLength: 80 },
});
const LIMIT = queryParam('limit', 'Changes per page, 1 to 1000; 100 by default', 100, { schema: { type: 'integer', minimum: 1, maximum: 1000 } });
const BAD_CURSOR = errorAnswer('A cursor this feed never gave out, or a page size out of range', "'since' must be a cursor this feed gave out (the 'next' of a page, or a change's 'cursor'), or empty for the start of the feed");

export const CHANGES_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/changes',
    tag: 'Changes',
    summary: 'Every committed registry change, oldest first, a page at a time',
    description:
      'One entry per change the registry\'s log holds (namespaces, resources, institutions, locations), with the cursor to resume from. A change shows once every transaction older than it has ended, so a cursor never skips one. `more: false` means the reader has caught up: ask again later with `next`. With Accept: application/atom+xml, the Atom feed of /changes.atom.',
    addition: 'a feed of every committed registry change',
    parameters: [SINCE, LIMIT],
    responses: {
      200: {
        description: 'A page of changes (or the Atom feed, by Accept)',
        content: [
          { type: 'application/json', schema: CHANGE_PAGE, example: { apiVersion: '1.0', errorMessage: null, payload: { changes: [CHANGE_EXAMPLE], next: CURSOR_EXAMPLE, more: false } } },
          { type: 'application/atom+xml', schema: { type: 'string' } },
        ],
      },
      400: BAD_CURSOR,
    },
  },
  {
    methods: ['get'],
    path: '/changes.atom',
    tag: 'Changes',
    summary: 'The registry changes as an Atom 1.0 feed',
    description:
      'Without `since`, the latest changes, newest first (what a feed reader wants); with it, the page after the cursor, oldest first, and a rel="next" link while there is more. Each entry links the namespace\'s page.',
    addition: 'a feed of every committed registry change',
    parameters: [SINCE, LIMIT],
    responses: {
      200: { description: 'The feed', content: [{ type: 'application/atom+xml', schema: { type: 'string' } }] },
      400: BAD_CURSOR,
    },
  },
  {
    methods: ['get'],
    path: '/resolutionApi/diff',
    tag: 'Dataset',
    summary: 'Namespaces and resources added, removed and changed (field by field) between two dataset versions',
    description:
      'A version is a date (YYYY-MM-DD: the dataset as the last build of that day left it, see getResolverDataset?version=) or `current`. Namespaces are matched by prefix, resources by MIR id; nested fields are compared leaf by leaf (`institution.name`). A diff is computed once per pair of builds, off the event loop; one client address may have 1 diff computed at a time and the area 2 (429 and 503, with Retry-After, beyond); diffs already computed or under way are answered whoever asks.',
    addition: 'what changed between two dataset versions',
    parameters: [
      queryParam('from', 'The older version: YYYY-MM-DD or current', 'current', { required: true, schema: VERSION }),
      queryParam('to', 'The newer version: YYYY-MM-DD or current', 'current', { required: true, schema: VERSION }),
    ],
    responses: {
      200: jsonAnswer('The differences', DATASET_DIFF, {
        apiVersion: '1.0',
        errorMessage: null,
        payload: {
          from: { version: '2026-01-01', builtAt: '2026-01-01T02:00:01.000Z', registryVersion: 120, namespaceCount: 22, resourceCount: 57 },
          to: { version: 'current', builtAt: '2026-01-02T10:00:05.000Z', registryVersion: 123, namespaceCount: 22, resourceCount: 57 },
          namespaces: { added: [], removed: [], changed: [{ prefix: 'go', mirId: 'MIR:00000022', name: 'Gene Ontology (renamed)', changes: [{ field: 'name', from: 'Gene Ontology', to: 'Gene Ontology (renamed)' }] }] },
          resources: { added: [], removed: [], changed: [] },
        },
      }),
      400: errorAnswer('A version that is neither a date nor current', "'from' must be a date YYYY-MM-DD or 'current'"),
      404: errorAnswer('No dataset was kept that day', 'There is no dataset of 2026-01-01: no dataset build was kept that day'),
      410: errorAnswer('That day\'s dataset is past the retention and was pruned', 'The dataset of 2025-01-01 is no longer kept: dated datasets are kept for 365 days (DATASET_RETENTION_DAYS) and this one was pruned on 2026-01-02'),
      429: errorAnswer(
        'This client address already has a diff being computed (Retry-After: 1)',
        'Too many dataset diffs from your address: at most 1 may be computed at once; send the next one when it has been answered',
      ),
      503: errorAnswer('Two other diffs are being computed (Retry-After: 1)', 'The registry is computing 2 other dataset diffs; retry shortly'),
    },
  },
];

/** getResolverDataset's addition: a past day's dataset. */
export const DATASET_VERSION_PARAMETER = queryParam(
  'version',
  'Addition: YYYY-MM-DD for the dataset as the last build of that day left it (404 when none was kept that day, 410 once pruned after DATASET_RETENTION_DAYS); absent or current: the current one',
  'current',
  { schema: VERSION },
);
export const DATASET_VERSION_ANSWERS = {
  400: errorAnswer('A version that is not a date', "'version' must be a date YYYY-MM-DD"),
  404: errorAnswer('No dataset was kept that day', 'There is no dataset of 2026-01-01: no dataset build was kept that day'),
  410: errorAnswer('That day\'s dataset is past the retention and was pruned', 'The dataset of 2025-01-01 is no longer kept: dated datasets are kept for 365 days (DATASET_RETENTION_DAYS) and this one was pruned on 2026-01-02'),
};
