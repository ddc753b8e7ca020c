/**
 * The registry's pages for people (pages/, the registration forms, the curator desk) and their files. They
 * answer HTML; their forms post application/x-www-form-urlencoded with the page's CSRF token.
 */
import { describeLimit } from '../http/json-body.js';
import { CURATION_DISABLED_MESSAGE } from '../registry/model/curator-auth.js';
import { FREE_WRONG_TRIES, MAX_DELAY_SECONDS, WRONG_TRY_WINDOW_SECONDS } from '../registry/model/wrong-token-throttle.js';
import { DESK_PATH, SIGN_IN_FORM_LIMIT } from '../registry/model/desk-auth.js';
import { REFERENCE_LIST_FORM_LIMIT } from '../registry/curator-desk/reference-prefixes.service.js';
import { QUEUE_BOARD_PATH } from '../registry/queue-board/queue-board-access.js';
import { ADMIN_QUEUES_PATH } from '../registry/queue-board/queue-board.routes.js';
import { formFields, REQUEST_FORMS } from '../registry/model/registration-fields.js';
import { SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZES } from '../registry/pages/search.page.js';
import { CSRF_FIELD } from '../web/csrf.js';
import { EMBED_PATH, EMBED_SCRIPT_PATH } from '../registry/embed/embed-script.js';
import { PUBLIC_REGISTRY, PUBLIC_RESOLVER, SAMPLE } from './examples.js';
import { PREFIX_VALIDATION_ENDPOINTS, RESOURCE_VALIDATION_ENDPOINTS } from '../registry/registration/validation/endpoints.js';
import {
  errorAnswer,
  FORM_TYPE,
  jsonAnswer,
  jsonBody,
  pageAnswer,
  pageErrorAnswer,
  pathParam,
  queryParam,
  redirectAnswer,
  type OperationSpec,
  type RequestBodySpec,
} from './operation.js';
import { PREFIX_REQUEST_EXAMPLE, RESOURCE_REQUEST_EXAMPLE } from './registry-registration.operations.js';
import { object, orNull, ref, type Schema } from './schema-kit.js';

const PAGES = 'Pages';
const DESK = 'Curator desk';

const SEE_OTHER = (location: string) => redirectAnswer('Done: to the next page', location);
const FORBIDDEN = pageAnswer('The form was not sent from our page (no or a wrong CSRF token): the form again');

function formBody(description: string, fields: Record<string, Schema>, example: Record<string, string>): RequestBodySpec {
  return {
    description,
    content: [
      {
        type: FORM_TYPE,
        schema: { type: 'object', properties: { [CSRF_FIELD]: { type: 'string', description: 'The token of the page the form is on' }, ...fields } },
        example: { [CSRF_FIELD]: 'cJ3q0sV2-example-token', ...example },
      },
    ],
  };
}

const text = (description: string): Schema => ({ type: 'string', description });

const FIELD_CHECK_ANSWER = object({ message: orNull(text('Why the field is refused, in the words and under the labels of the form; null when it passes')) });
const CHECKS = { prefix: PREFIX_VALIDATION_ENDPOINTS, resource: RESOURCE_VALIDATION_ENDPOINTS } as const;
const CHECK_EXAMPLES = { prefix: PREFIX_REQUEST_EXAMPLE, resource: RESOURCE_REQUEST_EXAMPLE } as const;

const requestFormOperations = Object.values(REQUEST_FORMS).flatMap((form): OperationSpec[] => {
  const fields = Object.fromEntries(formFields(form).map((field) => [field.name, text(field.label)]));
  const checks = CHECKS[form.kind].map((endpoint) => endpoint.name);
  return [
    {
      methods: ['get'],
      path: form.path,
      tag: PAGES,
      summary: `${form.title}: the form`,
      addition: 'registration forms for people',
      parameters: form.kind === 'resource' ? [queryParam('namespacePrefix', 'The namespace to fill in', SAMPLE.prefix)] : [],
      responses: { 200: pageAnswer('The form') },
    },
    {
      methods: ['post'],
      path: form.path,
      tag: PAGES,
      summary: `${form.title}: send it`,
      description: 'The same checks as the JSON API; a refused request comes back as the form with the messages next to their fields.',
      addition: 'registration forms for people',
      requestBody: formBody('The form\'s fields', { ...fields, action: text('ror-lookup: fill the institution in from its ROR id instead of sending') }, {
        providerName: 'Example provider',
      }),
      responses: {
        200: pageAnswer('The institution looked up at ROR, filled in'),
        303: SEE_OTHER('/requests/Xc1pYt0aRlC0VbQ2KQm0rX4vZ8yJm3wq5Tn7hL6dE2s?sent=1'),
        400: pageAnswer('Refused: the form with the messages'),
        403: FORBIDDEN,
      },
    },
    {
      methods: ['post'],
      path: `${form.path}/check/{validator}`,
      tag: PAGES,
      summary: `${form.title}: check a field as it is typed`,
      description:
        'What the form\'s script asks: the JSON API\'s field validator of that name on the same body, its message worded as the form words it (plain words, the form\'s labels). The JSON API keeps the reference\'s messages.',
      addition: 'registration forms for people',
      parameters: [pathParam('validator', 'The field validator', checks[0]!, { type: 'string', enum: checks })],
      requestBody: jsonBody('The request (the fields concerned at least) in the envelope', ref('RegistrationRequest'), CHECK_EXAMPLES[form.kind]),
      responses: {
        200: jsonAnswer('The field passes', FIELD_CHECK_ANSWER, { message: null }),
        400: jsonAnswer('The field fails', FIELD_CHECK_ANSWER, { message: 'Provider name is required' }),
        404: errorAnswer('No field validator has this name', "No field check named 'validateNothing'"),
      },
    },
  ];
});

const TOKEN = pathParam('token', 'The requester\'s token', 'Xc1pYt0aRlC0VbQ2KQm0rX4vZ8yJm3wq5Tn7hL6dE2s');
const KIND = pathParam('kind', 'The kind of request', 'prefix', { type: 'string', enum: ['prefix', 'resource'] });
const REQUEST_ID = pathParam('id', 'The registration session\'s id', 1);
const DESK_OFF = pageErrorAnswer('The desk is not enabled (neither CURATOR_TOKEN nor OIDC_ISSUER with OIDC_CLIENT_ID is set)', CURATION_DISABLED_MESSAGE);
const DESK_RESPONSES = {
  200: pageAnswer('The page'),
  303: redirectAnswer('Not signed in: to the sign-in page', `${DESK_PATH}/sign-in?next=${DESK_PATH}`),
  404: DESK_OFF,
} as const;
const DESK_FORM_RESPONSES = {
  303: SEE_OTHER(`${DESK_PATH}/requests/prefix/1?done=comment`),
  400: pageAnswer('Refused: the page with the message'),
  401: pageAnswer('Not signed in, or the session ended: the sign-in page'),
  403: FORBIDDEN,
  404: DESK_OFF,
  409: pageAnswer('The record or request changed meanwhile: the page with the message'),
} as const;

function deskForm(path: string, summary: string, parameters: OperationSpec['parameters'], fields: Record<string, Schema>, example: Record<string, string>): OperationSpec {
  return {
    methods: ['post'],
    path: `${DESK_PATH}${path}`,
    tag: DESK,
    summary,
    addition: 'the curators\' pages',
    access: 'desk',
    parameters,
    requestBody: formBody('The desk form\'s fields', fields, example),
    responses: DESK_FORM_RESPONSES,
  };
}

const RECORD_ID = (what: string, example: number) => pathParam('id', `The ${what}'s id`, example);

export const PAGE_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/',
    tag: PAGES,
    summary: 'The home page (for a browser; Accept preferring text/html)',
    addition: 'pages for people',
    responses: { 200: pageAnswer('The page: search, resolve and reverse-lookup boxes, and the registry in figures') },
  },
  {
    methods: ['get'],
    path: '/registry',
    tag: PAGES,
    summary: 'Search the registry (for a browser)',
    addition: 'pages for people',
    parameters: [
      queryParam('q', 'What to look for in prefixes, names and descriptions', 'taxon'),
      queryParam('page', 'Zero-based page', 0, { schema: { type: 'integer', minimum: 0 } }),
      queryParam('size', `Namespaces per page: ${SEARCH_PAGE_SIZES.join(', ')} (default ${SEARCH_PAGE_SIZE}); another number is taken as the largest of these not above it`, 50, {
        schema: { type: 'integer', enum: [...SEARCH_PAGE_SIZES] },
      }),
    ],
    responses: { 200: pageAnswer('The matching namespaces') },
  },
  {
    methods: ['get'],
    path: '/registry/{prefix}',
    tag: PAGES,
    summary: 'A namespace\'s page (for a browser), its RDF (by Accept), or its HAL item (for any other client)',
    description:
      'A browser gets the page; a client asking for Turtle, N-Triples or JSON-LD gets the namespace and its resources in RDF; any other client is redirected to the namespace\'s HAL item, where the resolver\'s links lead.',
    parameters: [pathParam('prefix', 'The namespace\'s prefix (any case)', SAMPLE.prefix)],
    responses: {
      200: {
        description: 'The page (the namespace, its providers with their health, and its usage), or its RDF',
        content: [
          { type: 'text/html', schema: ref('HtmlPage') },
          { type: 'text/turtle', schema: { type: 'string' } },
          { type: 'application/n-triples', schema: { type: 'string' } },
          { type: 'application/ld+json', schema: { type: 'object', additionalProperties: true }, example: { '@context': {}, '@id': `${PUBLIC_REGISTRY}/registry/taxonomy` } },
        ],
      },
      302: redirectAnswer('Not a browser: to the namespace\'s HAL item', `/restApi/namespaces/${SAMPLE.namespaceId}`),
      404: pageErrorAnswer('No such namespace: for a browser the nearest prefixes', "No namespace with prefix 'nosuchprefix'"),
    },
  },
  {
    methods: ['get'],
    path: '/resolve',
    tag: PAGES,
    summary: 'The home page\'s resolve box: to the resolver with the identifier',
    addition: 'pages for people',
    parameters: [queryParam('id', 'A compact identifier', SAMPLE.compactId)],
    responses: { 302: redirectAnswer('To the resolver (or home without an identifier)', `${PUBLIC_RESOLVER}/${SAMPLE.compactId}`) },
  },
  {
    methods: ['get'],
    path: '/reverse-lookup',
    tag: PAGES,
    summary: 'The compact identifier of a provider URL (for a browser)',
    addition: 'pages for people',
    parameters: [queryParam('url', 'A provider URL', 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606')],
    responses: { 200: pageAnswer('The matches'), 400: pageAnswer('No URL given') },
  },
  {
    methods: ['get'],
    path: '/static/{name}',
    tag: PAGES,
    summary: 'A stylesheet or script of the pages (public/)',
    description: 'Linked with `?v=<content hash>`: such an address never changes content and is cached for a year.',
    addition: 'pages for people',
    parameters: [pathParam('name', 'The file', 'registry.css')],
    responses: {
      200: { description: 'The file', content: [{ type: 'text/css', schema: { type: 'string' } }, { type: 'text/javascript', schema: { type: 'string' } }] },
      304: { description: 'The copy the client has is current' },
      404: pageErrorAnswer('No such file', 'No such endpoint: GET /static/nothing.css'),
    },
  },
  {
    methods: ['get'],
    path: EMBED_PATH,
    tag: PAGES,
    summary: 'How to embed the search box on another site, with the box at work',
    addition: 'the embeddable search box',
    responses: { 200: pageAnswer('The page') },
  },
  {
    methods: ['get'],
    path: EMBED_SCRIPT_PATH,
    tag: PAGES,
    summary: 'The embeddable search box: the script defining the <curie-search> element',
    description:
      'One script without dependencies, for any origin (CORS and Cross-Origin-Resource-Policy allow it). This address always serves the current version and is revalidated by its ETag; with `?v=<content hash>` (the address /embed shows) it never changes and is cached for a year.',
    addition: 'the embeddable search box',
    parameters: [queryParam('v', 'The content hash of the version wanted (any other value: the current version, cached briefly)', 'AbCdEf0123456789')],
    responses: {
      200: { description: 'The script', content: [{ type: 'text/javascript', schema: { type: 'string' } }] },
      304: { description: 'The copy the client has is current' },
    },
  },
  ...requestFormOperations,
  {
    methods: ['get'],
    path: '/requests/{token}',
    tag: PAGES,
    summary: 'A request\'s status page, for its requester',
    addition: 'pages for people',
    parameters: [TOKEN],
    responses: { 200: pageAnswer('The request and its public history'), 404: pageAnswer('No request has this token') },
  },
  {
    methods: ['post'],
    path: '/requests/{token}/comment',
    tag: PAGES,
    summary: 'Answer the curators from the status page',
    addition: 'pages for people',
    parameters: [TOKEN],
    requestBody: formBody('The reply', { comment: text('The reply') }, { comment: 'The sample id resolves now.' }),
    responses: {
      303: SEE_OTHER('/requests/Xc1pYt0aRlC0VbQ2KQm0rX4vZ8yJm3wq5Tn7hL6dE2s?answered=1#history'),
      400: pageAnswer('No reply: the page with the message'),
      403: FORBIDDEN,
      404: pageAnswer('No request has this token'),
      409: pageAnswer('The request is closed'),
    },
  },
  {
    methods: ['get'],
    path: `${DESK_PATH}/sign-in`,
    tag: DESK,
    summary: 'The curator desk\'s sign-in page',
    addition: 'the curators\' pages',
    parameters: [queryParam('next', 'Where to go once signed in (a desk path)', DESK_PATH)],
    responses: { 200: pageAnswer('The sign-in form'), 303: redirectAnswer('Already signed in: on to next', DESK_PATH) },
  },
  {
    methods: ['post'],
    path: `${DESK_PATH}/sign-in`,
    tag: DESK,
    summary: 'Sign in with the curator token',
    addition: 'the curators\' pages',
    requestBody: formBody('The token', { token: text('The curator token'), next: text('Where to go once signed in') }, { token: 'the-curator-token', next: DESK_PATH }),
    responses: {
      303: redirectAnswer('Signed in (a session cookie): on to next', DESK_PATH),
      401: pageAnswer('Not the curator token: the form again'),
      403: FORBIDDEN,
      404: pageErrorAnswer('Token sign-in is not enabled (no CURATOR_TOKEN)', 'This sign-in is not enabled on this registry'),
      413: pageErrorAnswer(`The form is larger than ${describeLimit(SIGN_IN_FORM_LIMIT)} (refused before it is read)`, `Request body is larger than the limit of ${describeLimit(SIGN_IN_FORM_LIMIT)}`),
      429: pageAnswer(
        `A wrong token after ${FREE_WRONG_TRIES} others from this address within ${WRONG_TRY_WINDOW_SECONDS / 60} minutes, counted with the curation APIs' (with Retry-After, doubling up to ${MAX_DELAY_SECONDS / 60} minutes); the right token is still let in`,
      ),
    },
  },
  {
    methods: ['post'],
    path: `${DESK_PATH}/sign-out`,
    tag: DESK,
    summary: 'Sign out (ends the session)',
    addition: 'the curators\' pages',
    requestBody: formBody('The desk\'s form', {}, {}),
    responses: {
      303: redirectAnswer('To the sign-in page (without a session at once, the body unread)', `${DESK_PATH}/sign-in?signedOut=1`),
      403: FORBIDDEN,
      413: pageErrorAnswer(`The form is larger than ${describeLimit(SIGN_IN_FORM_LIMIT)}`, `Request body is larger than the limit of ${describeLimit(SIGN_IN_FORM_LIMIT)}`),
    },
  },
  {
    methods: ['post'],
    path: `${DESK_PATH}/oidc/start`,
    tag: DESK,
    summary: 'Sign in with OpenID Connect: to the provider',
    description: 'Only when OIDC_ISSUER and OIDC_CLIENT_ID are set (404 otherwise).',
    addition: 'the curators\' pages',
    requestBody: formBody('The sign-in page\'s form', {}, {}),
    responses: {
      303: redirectAnswer('To the OpenID provider', 'https://login.example.org/authorize?client_id=registry'),
      403: FORBIDDEN,
      404: pageErrorAnswer('OpenID Connect sign-in is not enabled', 'This sign-in is not enabled on this registry'),
      413: pageErrorAnswer(`The form is larger than ${describeLimit(SIGN_IN_FORM_LIMIT)}`, `Request body is larger than the limit of ${describeLimit(SIGN_IN_FORM_LIMIT)}`),
      503: pageAnswer('The OpenID provider cannot be reached (with Retry-After)'),
    },
  },
  {
    methods: ['get'],
    path: `${DESK_PATH}/oidc/callback`,
    tag: DESK,
    summary: 'Where the OpenID provider sends the curator back',
    description: 'Only when OIDC_ISSUER and OIDC_CLIENT_ID are set (404 otherwise).',
    addition: 'the curators\' pages',
    parameters: [queryParam('code', 'The provider\'s authorization code', 'abc'), queryParam('state', 'The sign-in\'s state', 'xyz')],
    responses: {
      200: pageAnswer('Signed in (a session cookie)'),
      403: pageAnswer('Refused: not a curator, or a forged or stale sign-in'),
      404: pageErrorAnswer('OpenID Connect sign-in is not enabled', 'This sign-in is not enabled on this registry'),
      503: pageAnswer('The OpenID provider cannot be reached (with Retry-After)'),
    },
  },
  { methods: ['get'], path: DESK_PATH, tag: DESK, summary: 'The open registration requests', addition: 'the curators\' pages', access: 'desk', responses: DESK_RESPONSES },
  {
    methods: ['get'],
    path: `${DESK_PATH}/requests/{kind}/{id}`,
    tag: DESK,
    summary: 'A registration request, its history and the curators\' actions',
    addition: 'the curators\' pages',
    access: 'desk',
    parameters: [KIND, REQUEST_ID],
    responses: { ...DESK_RESPONSES, 404: pageErrorAnswer('No such request (or the desk is not enabled)', 'No such registration request') },
  },
  ...(['comment', 'reject', 'accept', 'amend'] as const).map((action) =>
    deskForm(`/requests/{kind}/{id}/${action}`, `${action.charAt(0).toUpperCase()}${action.slice(1)} a registration request`, [KIND, REQUEST_ID], { note: text('The comment, reason or note') }, {
      note: 'Thank you',
    }),
  ),
  {
    methods: ['get'],
    path: `${DESK_PATH}/registry`,
    tag: DESK,
    summary: 'Find a namespace to maintain',
    addition: 'the curators\' pages',
    access: 'desk',
    parameters: [queryParam('q', 'A prefix or name', 'taxon')],
    responses: DESK_RESPONSES,
  },
  {
    methods: ['get'],
    path: `${DESK_PATH}/namespaces/{prefix}`,
    tag: DESK,
    summary: 'A namespace with its resources, to edit',
    addition: 'the curators\' pages',
    access: 'desk',
    parameters: [pathParam('prefix', 'The namespace\'s prefix', SAMPLE.prefix)],
    responses: { ...DESK_RESPONSES, 404: pageErrorAnswer('No such namespace (or the desk is not enabled)', "No namespace with prefix 'nosuchprefix'") },
  },
  {
    methods: ['get'],
    path: QUEUE_BOARD_PATH,
    tag: 'Queue board',
    summary: 'The queue board: every work queue, its jobs, and the retry, clean and promote actions',
    description:
      'bull-board\'s page, for a signed-in curator (or the curator token). Its own API and files are under this path (bull-board\'s, not described here); actions other than retry, clean and promote are refused (403), and so is an action from another origin.',
    addition: 'the operators\' view of the queues',
    access: 'desk',
    responses: {
      200: pageAnswer('The board'),
      303: redirectAnswer('Not signed in: to the sign-in page, and back', `${DESK_PATH}/sign-in?next=${QUEUE_BOARD_PATH}`),
      404: DESK_OFF,
    },
  },
  {
    methods: ['get', 'put', 'post', 'patch'],
    path: ADMIN_QUEUES_PATH,
    tag: 'Queue board',
    summary: 'The queue board\'s other address: to the board',
    description: `308 (the method and body kept) to ${QUEUE_BOARD_PATH}, where the desk's session cookie is sent.`,
    addition: 'the operators\' view of the queues',
    responses: { 308: redirectAnswer('To the board', QUEUE_BOARD_PATH) },
  },
  {
    methods: ['get', 'put', 'post', 'patch'],
    path: `${ADMIN_QUEUES_PATH}/{rest}`,
    tag: 'Queue board',
    summary: 'Anything under the queue board\'s other address: to the same place under the board',
    addition: 'the operators\' view of the queues',
    parameters: [pathParam('rest', 'The rest of the path (may hold /)', 'api/queues')],
    responses: { 308: redirectAnswer('To the same path under the board', `${QUEUE_BOARD_PATH}/api/queues`) },
  },
  ...(
    [
      ['resources', 'resource', SAMPLE.resourceId],
      ['institutions', 'institution', SAMPLE.institutionId],
    ] as const
  ).map(
    ([collection, what, id]): OperationSpec => ({
      methods: ['get'],
      path: `${DESK_PATH}/${collection}/{id}`,
      tag: DESK,
      summary: `A ${what}, to edit`,
      addition: 'the curators\' pages',
      access: 'desk',
      parameters: [RECORD_ID(what, id)],
      responses: { ...DESK_RESPONSES, 404: pageErrorAnswer(`No such ${what} (or the desk is not enabled)`, `No ${what} with id '99999'`) },
    }),
  ),
  ...(
    [
      ['namespaces', 'namespace', SAMPLE.namespaceId],
      ['resources', 'resource', SAMPLE.resourceId],
      ['institutions', 'institution', SAMPLE.institutionId],
    ] as const
  ).map(([collection, what, id]) =>
    deskForm(`/${collection}/{id}/edit`, `Edit a ${what}`, [RECORD_ID(what, id)], { name: text('And the other fields of the record') }, { name: 'Taxonomy' }),
  ),
  {
    ...deskForm('/institutions/{id}/delete', 'Delete an institution no provider uses (logged with the curator)', [RECORD_ID('institution', SAMPLE.institutionId)], {}, {}),
    responses: {
      ...DESK_FORM_RESPONSES,
      303: SEE_OTHER(`${DESK_PATH}/institutions?done=delete`),
      404: pageErrorAnswer('No such institution (or the desk is not enabled)', 'There is no such record in the registry.'),
      409: pageAnswer('Providers use the institution: its page, saying how many'),
    },
  },
  {
    methods: ['get'],
    path: `${DESK_PATH}/institutions`,
    tag: DESK,
    summary: 'The institutions by name, 50 a page, with the number of providers using each; those unused can be deleted',
    addition: 'the curators\' pages',
    access: 'desk',
    parameters: [
      queryParam('q', 'A part of the name (at most 200 characters are taken)', 'Institute'),
      queryParam('page', 'Zero-based page (past the last: the last)', 0, { schema: { type: 'integer', minimum: 0 } }),
    ],
    responses: DESK_RESPONSES,
  },
  {
    methods: ['get'],
    path: `${DESK_PATH}/warnings`,
    tag: DESK,
    summary: 'The open curation warnings: the summary of /curationApi/warningsSummary as a table, 25 namespaces or institutions a page, each with its warnings\' details',
    addition: 'the curators\' pages',
    access: 'desk',
    parameters: [queryParam('page', 'Zero-based page (past the last: the last)', 0, { schema: { type: 'integer', minimum: 0 } })],
    responses: DESK_RESPONSES,
  },
  deskForm('/namespaces/{id}/successor', 'Set or clear a namespace\'s successor', [RECORD_ID('namespace', SAMPLE.namespaceId)], { successor: text('The successor\'s prefix (empty clears it)') }, {
    successor: 'ncbigene',
  }),
  {
    methods: ['get'],
    path: `${DESK_PATH}/reference-prefixes`,
    tag: DESK,
    summary: 'Other registries\' prefix lists: those loaded, and the form that loads one',
    addition: 'the curators\' pages; requested prefixes are checked against these lists',
    access: 'desk',
    parameters: [queryParam('loaded', 'What the last load loaded (shown as a notice)', '2 prefixes of bioregistry')],
    responses: DESK_RESPONSES,
  },
  {
    ...deskForm(
      '/reference-prefixes',
      'Load another registry\'s prefix list, replacing its earlier one',
      [],
      {
        source: text('The registry the list comes from (letters, digits, dots, dashes, underscores)'),
        format: text('json, tsv or csv; empty: as the text looks'),
        list: text('The list: JSON ([{prefix, name}] or {prefix: name}), TSV or CSV with a prefix column and a name column'),
      },
      { source: 'bioregistry', format: 'tsv', list: 'prefix\tname\nncbitaxon\tNCBI Taxonomy' },
    ),
    addition: 'the curators\' pages; requested prefixes are checked against these lists',
    responses: {
      ...DESK_FORM_RESPONSES,
      303: SEE_OTHER(`${DESK_PATH}/reference-prefixes?loaded=2%20prefixes%20of%20bioregistry`),
      413: pageErrorAnswer(
        `The form is larger than ${describeLimit(REFERENCE_LIST_FORM_LIMIT)} as sent (refused before it is read; a larger list is loaded with the command line's reference-prefixes)`,
        `Request body is larger than the limit of ${describeLimit(REFERENCE_LIST_FORM_LIMIT)}`,
      ),
      422: pageAnswer('The list or the registry\'s name cannot be read: the page with the message next to its field'),
    },
  },
  ...(['deactivate', 'reactivate'] as const).flatMap((change) => [
    deskForm(`/namespaces/{id}/${change}`, `${change === 'deactivate' ? 'Deactivate' : 'Reactivate'} a namespace`, [RECORD_ID('namespace', SAMPLE.namespaceId)], {}, {}),
    deskForm(`/resources/{id}/${change}`, `${change === 'deactivate' ? 'Deactivate' : 'Reactivate'} a resource`, [RECORD_ID('resource', SAMPLE.resourceId)], { urlPattern: text('Reactivation: the URL pattern it is served at again') }, {}),
  ]),
];
