/**
 * The curators' endpoints, every one behind the curator token (registry-behaviour.md §2.7, §5.3): the
 * registration sessions' actions and HAL reads (curation.routes.ts), registry maintenance
 * (maintenance.routes.ts) and the curation warnings (warnings.routes.ts). Their request schemas are the
 * ones those routes validate with.
 */
import { AMENDED_FIELD } from '../registry/model/curation-operations.js';
import { CURATION_NAMES, eventRel } from '../registry/curation/curation.presenter.js';
import type { EditableCollection } from '../registry/model/record-maintenance.js';
import type { EventName, RequestKind } from '../registry/model/registration-records.js';
import { COLLECTIONS } from '../registry/model/collections.js';
import { itemSchemaName } from './answers/hal.schemas.js';
import { LINK, PUBLIC_REGISTRY, REFERENCE_DATE_EXAMPLE, SAMPLE } from './examples.js';
import { errorAnswer, HAL_TYPE, jsonAnswer, jsonBody, NO_CONTENT, pathParam, queryParam, type OperationSpec } from './operation.js';
import { ITEM_EXAMPLES } from './registry-browse.operations.js';
import { ref } from './schema-kit.js';

const TAG = 'Curation';
const NOT_FOUND = errorAnswer('No such item (or curation is off)', 'EntityRepresentationModel not found!');
const DONE = jsonAnswer('Done', ref('CommentPayload'), { apiVersion: '1.0', errorMessage: null, payload: { comment: null } });

const KINDS: readonly { kind: RequestKind; name: string; base: string; suffix: string }[] = [
  { kind: 'prefix', name: 'Prefix', base: '/prefixRegistrationApi', suffix: 'PrefixRegistrationRequest' },
  { kind: 'resource', name: 'Resource', base: '/resourceManagementApi', suffix: 'ResourceRegistrationRequest' },
];

const ACTIONS = {
  amend: 'Amend the request (a new version of it; its fields are checked again)',
  comment: 'Comment on the request (the requester is told)',
  reject: 'Reject the request (closes the session)',
  accept: 'Accept the request: the namespace or resource joins the registry (closes the session)',
} as const;

const ID_SCHEMA = { type: 'string', pattern: '^[0-9]{1,15}$', maxLength: 15 };
const sessionId = pathParam('sessionId', 'The registration session\'s id', '1', ID_SCHEMA);
const itemId = (what: string) => pathParam('id', `The ${what}'s id`, '1', ID_SCHEMA);

/**
 * An event of each type, as a session that was commented on, amended and rejected (1) and another that was
 * accepted (2) have them.
 */
const EVENT_EXAMPLE_IDS: Readonly<Record<EventName, string>> = { START: '1', COMMENT: '2', AMEND: '3', REJECT: '4', ACCEPT: '6' };

function sessionExample(kind: RequestKind) {
  const n = CURATION_NAMES[kind];
  return {
    closed: false,
    created: REFERENCE_DATE_EXAMPLE,
    _links: { self: LINK(`${n.sessions}/1`), [n.sessionRel]: LINK(`${n.sessions}/1`), [n.requestRel]: LINK(`${n.sessions}/1/${n.requestRel}`) },
  };
}

function eventExample(kind: RequestKind) {
  const n = CURATION_NAMES[kind];
  return {
    eventName: 'COMMENT',
    actor: 'curator',
    additionalInformation: null,
    created: REFERENCE_DATE_EXAMPLE,
    comment: 'Could you give a sample id that resolves?',
    _links: {
      self: LINK(`${eventRel(kind, 'COMMENT')}s/2`),
      [eventRel(kind, 'COMMENT')]: LINK(`${eventRel(kind, 'COMMENT')}s/2`),
      [n.sessionRel]: LINK(`${n.sessions}/1`),
      [n.requestRel]: LINK(`${n.requests}/1`),
    },
  };
}

const COMMON_REQUEST = {
  providerHomeUrl: 'https://www.example.org/',
  providerName: 'Example provider',
  providerDescription: 'An example provider of records',
  providerLocation: 'GB',
  providerCode: 'example',
  institutionName: 'Example Institute',
  institutionDescription: 'An example institute',
  institutionHomeUrl: 'https://www.example.org/institute',
  institutionLocation: 'GB',
  institutionRorId: null,
};

function requestExample(kind: RequestKind) {
  const n = CURATION_NAMES[kind];
  const protection = { protectedUrls: false, renderProtectedLanding: false, authHelpUrl: null, authHelpDescription: null };
  const links = { _links: { self: LINK(`${n.requests}/1`), [n.requestRel]: LINK(`${n.requests}/1`) } };
  if (kind === 'prefix') {
    return {
      name: 'Example records',
      description: 'Records of an example database',
      ...COMMON_REQUEST,
      requestedPrefix: 'example',
      providerUrlPattern: 'https://www.example.org/records/{$id}',
      sampleId: '12345',
      idRegexPattern: '^\\d+$',
      supportingReferences: ['https://doi.org/10.1000/182'],
      additionalInformation: null,
      requesterName: 'A. Requester',
      requesterEmail: 'requester@example.org',
      namespaceEmbeddedInLui: false,
      created: REFERENCE_DATE_EXAMPLE,
      ...protection,
      ...links,
    };
  }
  return {
    namespacePrefix: 'taxonomy',
    ...COMMON_REQUEST,
    providerUrlPattern: 'https://www.example.org/taxa/{$id}',
    sampleId: '9606',
    additionalInformation: null,
    requesterName: 'A. Requester',
    requesterEmail: 'requester@example.org',
    created: REFERENCE_DATE_EXAMPLE,
    ...protection,
    ...links,
  };
}

function registrationCurationOperations({ kind, name, base, suffix }: (typeof KINDS)[number]): OperationSpec[] {
  const n = CURATION_NAMES[kind];
  const actions = (Object.keys(ACTIONS) as (keyof typeof ACTIONS)[]).map(
    (action): OperationSpec => ({
      methods: ['post'],
      path: `${base}/${action}${suffix}/{sessionId}`,
      tag: TAG,
      summary: `${kind} requests: ${ACTIONS[action]}`,
      access: 'curator',
      parameters: [sessionId],
      requestBody: jsonBody(
        action === 'amend' ? 'The envelope with the amended request' : 'The envelope; every text is optional (the reference\'s default texts stand in)',
        ref(action === 'amend' ? `${name}AmendmentRequest` : 'SessionEventRequest'),
        action === 'amend'
          ? { apiVersion: '1.0', payload: { [AMENDED_FIELD[kind]]: { providerName: 'Example provider (renamed)' }, additionalInformation: 'Renamed on request' } }
          : { apiVersion: '1.0', payload: { [action === 'reject' ? 'rejectionReason' : action === 'accept' ? 'acceptanceReason' : 'comment']: 'Thank you' } },
      ),
      responses: {
        200: DONE,
        400: errorAnswer('Not a session-event envelope, or the amended request fails its checks', 'The request body must be a session-event envelope: {"apiVersion": "1.0", "payload": {...}}'),
        409: errorAnswer('The session is closed', 'The registration session 1 is closed'),
      },
    }),
  );
  const hal = (summary: string, path: string, schema: string, example: unknown, extra: Partial<OperationSpec> = {}): OperationSpec => ({
    methods: ['get'],
    path,
    tag: TAG,
    summary,
    access: 'curator',
    responses: { 200: jsonAnswer(summary, ref(schema), example, HAL_TYPE), 404: NOT_FOUND },
    ...extra,
  });
  const eventCollections: [string, string][] = [
    [n.events, '1'],
    ...(Object.entries(EVENT_EXAMPLE_IDS) as [EventName, string][]).map(([e, id]): [string, string] => [`${eventRel(kind, e)}s`, id]),
  ];
  return [
    ...actions,
    hal(`${kind} sessions: the searches`, `/restApi/${n.sessions}/search`, 'HalRoot', {
      _links: { findByClosedFalse: { href: `${PUBLIC_REGISTRY}/restApi/${n.sessions}/search/findByClosedFalse{?page,size,sort}`, templated: true }, self: LINK(`${n.sessions}/search`) },
    }),
    hal(`${kind} session events: the searches`, `/restApi/${n.events}/search`, 'HalRoot', {
      _links: { [n.eventsSearch]: { href: `${PUBLIC_REGISTRY}/restApi/${n.events}/search/${n.eventsSearch}{?id}`, templated: true }, self: LINK(`${n.events}/search`) },
    }),
    hal(
      `The open ${kind} registration sessions`,
      `/restApi/${n.sessions}/search/findByClosedFalse`,
      `${name}RegistrationSessionPage`,
      {
        _embedded: { [n.sessions]: [sessionExample(kind)] },
        _links: { self: { href: `${PUBLIC_REGISTRY}/restApi/${n.sessions}/search/findByClosedFalse` } },
        page: { size: 20, totalElements: 1, totalPages: 1, number: 0 },
      },
      {
        parameters: [
          queryParam('page', 'Zero-based page number', 0, { schema: { type: 'integer', minimum: 0 } }),
          queryParam('size', 'Page size', 20, { schema: { type: 'integer', minimum: 1 } }),
          queryParam('sort', '`created` or `closed`, with `,asc` or `,desc`', 'created,desc'),
        ],
      },
    ),
    hal(`A ${kind} registration session`, `/restApi/${n.sessions}/{id}`, `${name}RegistrationSession`, sessionExample(kind), { parameters: [itemId('session')] }),
    hal(`The current version of a session's ${kind} request`, `/restApi/${n.sessions}/{id}/${n.requestRel}`, `${name}RegistrationRequest`, requestExample(kind), {
      parameters: [itemId('session')],
    }),
    hal(`A version of a ${kind} registration request`, `/restApi/${n.requests}/{id}`, `${name}RegistrationRequest`, requestExample(kind), {
      parameters: [itemId('request version')],
    }),
    {
      ...hal(
        `The events of a ${kind} registration session, grouped by type`,
        `/restApi/${n.events}/search/${n.eventsSearch}`,
        `${name}RegistrationSessionEvents`,
        { _embedded: { [`${eventRel(kind, 'COMMENT')}s`]: [eventExample(kind)] }, _links: { self: { href: `${PUBLIC_REGISTRY}/restApi/${n.events}/search/${n.eventsSearch}?id=1` } } },
        { parameters: [queryParam('id', 'The session\'s id', '1', { required: true, schema: { type: 'string', pattern: '^[0-9]{1,15}$', maxLength: 15 } })] },
      ),
      responses: {
        200: jsonAnswer('The events', ref(`${name}RegistrationSessionEvents`), {
          _embedded: { [`${eventRel(kind, 'COMMENT')}s`]: [eventExample(kind)] },
          _links: { self: { href: `${PUBLIC_REGISTRY}/restApi/${n.events}/search/${n.eventsSearch}?id=1` } },
        }, HAL_TYPE),
        400: errorAnswer('No session id', "Parameter 'id' must be a session id (a whole number)"),
      },
    },
    ...eventCollections.map(([collection, id]) =>
      hal(`An event of a ${kind} registration session (${collection})`, `/restApi/${collection}/{id}`, `${name}RegistrationSessionEvent`, eventExample(kind), {
        parameters: [pathParam('id', 'The event\'s id', id, ID_SCHEMA)],
      }),
    ),
  ];
}

const EDITABLE: readonly EditableCollection[] = ['namespaces', 'resources', 'institutions'];
const PATCH_EXAMPLES: Readonly<Record<EditableCollection, unknown>> = {
  namespaces: { description: 'The taxonomy of all living forms with sequenced nucleic acids or proteins.' },
  resources: { official: true },
  institutions: { homeUrl: 'https://www.ncbi.nlm.nih.gov/' },
};
const EDIT_IDS: Readonly<Record<EditableCollection, number>> = { namespaces: SAMPLE.namespaceId, resources: SAMPLE.resourceId, institutions: SAMPLE.institutionId };

const report = (comment: string) => jsonAnswer('Done: the report', ref('LifecycleReport'), { apiVersion: '1.0', errorMessage: null, payload: { comment } });
const refusal = (description: string, message: string) =>
  jsonAnswer(description, ref('LifecycleReport'), { apiVersion: '1.0', errorMessage: message, payload: { comment: '--- No additional information set ---' } });

const MAINTENANCE_OPERATIONS: readonly OperationSpec[] = [
  ...EDITABLE.map(
    (collection): OperationSpec => ({
      methods: ['patch'],
      path: `/restApi/${collection}/{id}`,
      tag: TAG,
      summary: `Change fields of a ${COLLECTIONS[collection].itemRel}`,
      description:
        'A JSON merge of the item\'s fields, as Spring Data REST reads it: a field present replaces the stored value (null clears it), associations are given as their target\'s self href, and read-only or unknown fields are ignored. Answers the item (200) when the request has an Accept header, else 204.',
      access: 'curator',
      parameters: [pathParam('id', `The ${COLLECTIONS[collection].itemRel}'s id`, EDIT_IDS[collection])],
      requestBody: jsonBody('The fields to change', ref(`${itemSchemaName(COLLECTIONS[collection])}Patch`), PATCH_EXAMPLES[collection]),
      responses: {
        200: jsonAnswer('The changed item', ref(itemSchemaName(COLLECTIONS[collection])), ITEM_EXAMPLES[collection], HAL_TYPE),
        204: NO_CONTENT,
        400: errorAnswer('A field has the wrong type, or a value breaks the registration rules', "'deprecated' must be true or false"),
        409: errorAnswer('The change conflicts with another item (a prefix in use, say)', "A namespace already has the prefix 'go'"),
      },
    }),
  ),
  {
    methods: ['put'],
    path: '/restApi/namespaces/{id}/successor',
    tag: TAG,
    summary: 'Set (or clear, with an empty list) the successor of a namespace',
    access: 'curator',
    parameters: [pathParam('id', 'The namespace\'s id', SAMPLE.namespaceId)],
    requestBody: {
      description: 'The successor\'s self href (RFC 2483 uri-list: one per line; none clears it)',
      content: [{ type: 'text/uri-list', schema: { type: 'string' }, example: `${PUBLIC_REGISTRY}/restApi/namespaces/239\n` }],
    },
    responses: { 204: NO_CONTENT, 400: errorAnswer('Not a namespace\'s href, or the namespace itself', 'The successor must be one namespace\'s href') },
  },
  ...(
    [
      ['/namespaceManagementApi/deactivateNamespace/{id}', 'Deactivate a namespace (deprecate it and its resources)', 'namespace', SAMPLE.namespaceId],
      ['/namespaceManagementApi/reactivateNamespace/{id}', 'Reactivate a deprecated namespace', 'namespace', SAMPLE.namespaceId],
      ['/resourceManagementApi/deactivateResource/{id}', 'Deactivate a resource', 'resource', SAMPLE.resourceId],
    ] as const
  ).map(
    ([path, summary, what, id]): OperationSpec => ({
      methods: ['get', 'post'],
      path,
      tag: TAG,
      summary,
      description: 'The reference\'s path is a GET; POST is taken as well. HEAD is refused (it must not change anything).',
      access: 'curator',
      parameters: [pathParam('id', `The ${what}'s id`, id)],
      responses: {
        200: report(`${what === 'namespace' ? 'Namespace' : 'Resource'} ${id} deactivated`),
        400: refusal('Refused: the report says why', `The ${what} is already deactivated`),
        409: refusal('Refused: the change conflicts with the registry\'s state', `The ${what} is already deactivated`),
      },
    }),
  ),
  {
    methods: ['post'],
    path: '/resourceManagementApi/reactivateResource/{id}',
    tag: TAG,
    summary: 'Reactivate a deprecated resource, optionally at a new URL pattern',
    access: 'curator',
    parameters: [pathParam('id', 'The resource\'s id', SAMPLE.resourceId)],
    requestBody: jsonBody('The envelope, with the URL pattern the resource is served at again', ref('ReactivationRequest'), {
      apiVersion: '1.0',
      payload: { providerUrlPattern: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id={$id}' },
    }),
    responses: {
      200: report('Resource 29 reactivated'),
      400: refusal('Refused: the report says why', 'The resource is not deactivated'),
      409: refusal('Refused: the change conflicts with the registry\'s state', 'The resource is not deactivated'),
    },
  },
  {
    methods: ['get', 'post', 'delete'],
    path: '/institutionManagementApi/deleteById/{id}',
    tag: TAG,
    summary: 'Delete an institution no resource uses',
    description: 'The reference\'s path is a GET; POST and DELETE are taken as well. Answers plain text, as the reference.',
    access: 'curator',
    parameters: [pathParam('id', 'The institution\'s id', 9999)],
    responses: {
      200: { description: 'Deleted', content: [{ type: 'text/plain', schema: { type: 'string' }, example: 'Institution 9999 deleted' }] },
      409: { description: 'Resources still use it', content: [{ type: 'text/plain', schema: { type: 'string' }, example: 'Institution 2 is used by 12 resources' }] },
    },
  },
];

const WARNING_EXAMPLE = {
  globalId: 'namespace:28:missing-sample',
  type: 'missing-sample',
  open: true,
  created: REFERENCE_DATE_EXAMPLE,
  modified: REFERENCE_DATE_EXAMPLE,
  lastNotification: REFERENCE_DATE_EXAMPLE,
  latestEvent: { type: 'CREATED', created: REFERENCE_DATE_EXAMPLE },
  moreDetails: { sampleId: '9606' },
  _links: { self: LINK('curationWarnings/1'), target: LINK('namespaces/28'), events: LINK('curationWarnings/1/events') },
};

const WARNING_OPERATIONS: readonly OperationSpec[] = [
  ...(['namespaces', 'resources', 'institutions'] as const).map(
    (owner): OperationSpec => ({
      methods: ['get'],
      path: `/restApi/${owner}/{id}/curationWarnings`,
      tag: 'Curation warnings',
      summary: `The curation warnings of a ${COLLECTIONS[owner].itemRel}`,
      parameters: [pathParam('id', `The ${COLLECTIONS[owner].itemRel}'s id`, EDIT_IDS[owner])],
      responses: {
        200: jsonAnswer('Its warnings (the key stays when there are none)', ref('CurationWarningList'), {
          _embedded: { curationWarnings: [WARNING_EXAMPLE] },
          _links: { self: LINK(`${owner}/${EDIT_IDS[owner]}/curationWarnings`) },
        }, HAL_TYPE),
        404: errorAnswer('No such item', `${COLLECTIONS[owner].noun} with id '99999' not found`),
      },
    }),
  ),
  {
    methods: ['get'],
    path: '/restApi/curationWarnings/{id}',
    tag: 'Curation warnings',
    summary: 'A stored curation warning',
    access: 'curator',
    parameters: [pathParam('id', 'The warning\'s id', 1)],
    responses: { 200: jsonAnswer('The warning', ref('CurationWarning'), WARNING_EXAMPLE, HAL_TYPE), 404: NOT_FOUND },
  },
  {
    methods: ['get'],
    path: '/restApi/curationWarnings/{id}/events',
    tag: 'Curation warnings',
    summary: 'The history of a curation warning, oldest first',
    access: 'curator',
    parameters: [pathParam('id', 'The warning\'s id', 1)],
    responses: {
      200: jsonAnswer('Its events', ref('CurationWarningEvents'), {
        _embedded: { curationWarningEvents: [{ type: 'CREATED', actor: 'validator', created: REFERENCE_DATE_EXAMPLE, _links: { curationWarning: LINK('curationWarnings/1') } }] },
        _links: { self: LINK('curationWarnings/1/events') },
      }, HAL_TYPE),
      404: NOT_FOUND,
    },
  },
  {
    methods: ['post'],
    path: '/curationApi/notifications',
    tag: 'Curation warnings',
    summary: 'The registry validator\'s full snapshot of warnings (a null payload changes nothing)',
    access: 'curator',
    requestBody: jsonBody('Every current warning', ref('NotificationsRequest'), {
      apiVersion: '1.0',
      payload: [{ targetType: 'namespace', targetId: 28, globalId: 'namespace:28:missing-sample', type: 'missing-sample', details: { sampleId: '9606' } }],
    }),
    responses: {
      200: { description: 'Taken (an empty body, as the reference)' },
      400: errorAnswer('Not a list of notifications', 'The request body must be an envelope whose payload is a list of notifications'),
    },
  },
  {
    methods: ['get'],
    path: '/curationApi/warningsSummary',
    tag: 'Curation warnings',
    summary: 'The curation dashboard\'s summary of open warnings, with recent usage per prefix',
    access: 'curator',
    responses: {
      200: jsonAnswer('The summary', ref('WarningsSummary'), {
        apiVersion: '1.0',
        errorMessage: null,
        payload: {
          namespaceUsage: { taxonomy: 1234 },
          summaryEntries: [
            {
              targetInfo: { type: 'Prefix', identifier: 'taxonomy', label: 'Taxonomy' },
              failingInstitutionUrl: 0,
              lowAvailabilityResources: 1,
              hasCurationValues: false,
              hasPossibleWikidataError: false,
              allDisabled: false,
            },
          ],
        },
      }),
    },
  },
];

export const CURATION_OPERATIONS: readonly OperationSpec[] = [...KINDS.flatMap(registrationCurationOperations), ...MAINTENANCE_OPERATIONS, ...WARNING_OPERATIONS];
