/**
 * The resolver area's operations (resolver/app.ts, front-handler.ts, resolver-behaviour.md §1 to §4.2).
 */
import { DOCS_OPERATIONS, HEALTH_OPERATIONS, METRICS_OPERATIONS } from './common.operations.js';
import { PUBLIC_REGISTRY, RESOLUTION, RESOLUTION_FAILED, RESOLVED_RESOURCE, REVERSE_MATCH, SAMPLE } from './examples.js';
import { errorAnswer, jsonAnswer, jsonBody, NO_CONTENT, pageAnswer, pathParam, queryParam, redirectAnswer, type OperationSpec } from './operation.js';
import { ref } from './schema-kit.js';
import { RESOLVER_ASSETS_PATH } from '../resolver/resolver-site.js';
import { STYLESHEET } from '../web/site.js';

const COMPACT_ID = (example: string) =>
  pathParam(
    'compactId',
    'A compact identifier: `prefix:accession`, `provider/prefix:accession` or a bare prefix. It may hold `/` (sent as is), and is percent-decoded once.',
    example,
  );

const REVERSE_EXAMPLE = { apiVersion: '1.0', payload: { url: 'https://www.ncbi.nlm.nih.gov/gene/100010', accession: '100010' } };
const HEAVY_REFUSAL = errorAnswer(
  'Too many requests: the rate limit of the route family, or the client\'s cap of heavy requests under way (with Retry-After)',
  'Too many heavy requests under way from this client; retry when one has finished',
);


const METADATA_PAGE_URL = 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606';
const METADATA_PAYLOAD = {
  metadata: [{ '@context': 'https://schema.org', '@type': 'Dataset', name: 'Homo sapiens', identifier: '9606' }],
  url: METADATA_PAGE_URL,
  finalUrl: METADATA_PAGE_URL,
  fetchedAt: '2026-01-05T10:00:00.000Z',
  page: { title: 'Homo sapiens', description: 'Taxonomy browser entry', image: null, url: null, siteName: 'NCBI', type: 'website', locale: 'en', favicon: null },
  jsonLdSkipped: 0,
  ageSeconds: 120,
};
const metadataFailure = (errorMessage: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: '1.0',
  errorMessage,
  payload: { metadata: null, ...extra },
});
const metadataAnswer = (description: string, example: unknown) => jsonAnswer(description, ref('MetadataAnswer'), example);
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before asking again', schema: { type: 'integer' } } };
const AGE = { Age: { description: 'Seconds since the page was fetched (the answer may come from the cache)', schema: { type: 'integer' } } };
/** The answers both metadata forms share: what the worker made of the page, and the waits. */
const METADATA_FETCH_ANSWERS = {
  202: {
    ...metadataAnswer('The page is being fetched (longer than METADATA_WAIT_MS): ask again after Retry-After', metadataFailure(`The page at ${METADATA_PAGE_URL} is being fetched; ask again in a few seconds`, { url: METADATA_PAGE_URL })),
    headers: RETRY_AFTER,
  },
  422: metadataAnswer('The page\'s address is private or loopback (the fetch guard refuses it)', metadataFailure('The URL http://10.0.0.1/ is not fetched: it points to a private or loopback address', { url: 'http://10.0.0.1/', finalUrl: 'http://10.0.0.1/', fetchedAt: '2026-01-05T10:00:00.000Z', ageSeconds: 0 })),
  429: errorAnswer(
    'Over RATE_LIMIT_BATCH, which counts each metadata request as one item (with Retry-After)',
    'Too many batch items from your address: at most 60,000 a minute; the Retry-After header says when to send the next',
  ),
  502: metadataAnswer('The page cannot be reached, or answers an error', metadataFailure(`The page at ${METADATA_PAGE_URL} answered 404 NOT_FOUND`, { url: METADATA_PAGE_URL, finalUrl: METADATA_PAGE_URL, fetchedAt: '2026-01-05T10:00:00.000Z', ageSeconds: 3 })),
  503: {
    ...metadataAnswer('The job queue cannot be reached, or too many pages are waiting to be fetched', metadataFailure('Provider metadata is unavailable right now (the job queue cannot be reached); retry in a few seconds', { url: METADATA_PAGE_URL })),
    headers: RETRY_AFTER,
  },
  504: metadataAnswer('The page did not answer within METADATA_TIMEOUT_MS', metadataFailure(`The page at ${METADATA_PAGE_URL} did not answer within 10 seconds`, { url: METADATA_PAGE_URL, finalUrl: METADATA_PAGE_URL, fetchedAt: '2026-01-05T10:00:00.000Z', ageSeconds: 0 })),
};
const METADATA_DESCRIPTION =
  'The page is fetched by a worker process (never by the resolver), through the guarded HTTP client (no private or loopback address, at most 5 redirects, METADATA_MAX_BODY_BYTES, METADATA_TIMEOUT_MS), politely (METADATA_HOST_CONCURRENCY and METADATA_HOST_DELAY_MS per host across all workers). The answer is kept in Redis (METADATA_CACHE_SECONDS; failures METADATA_ERROR_CACHE_SECONDS) and says how old it is (Age, ageSeconds, fetchedAt). A request waits METADATA_WAIT_MS at most, then answers 202 with Retry-After while the fetch goes on. Counted against RATE_LIMIT_BATCH, one each.';

export const RESOLVER_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/',
    tag: 'Resolution',
    summary: 'What this address is (a page for a browser)',
    description: 'A browser (Accept preferring text/html) gets a short page pointing to the registry, the API documentation and this document; any other client the 404 of an address no route serves, as always.',
    addition: 'a page for people who open the resolver\'s address',
    responses: {
      200: pageAnswer('The page, for a browser'),
      404: errorAnswer('Any other client', 'No such endpoint: GET /'),
    },
  },
  {
    methods: ['get'],
    path: '/{compactId}',
    tag: 'Resolution',
    summary: 'Resolve a compact identifier',
    description:
      'JSON for API clients (the reference\'s resolver API). A browser (Accept preferring text/html) or `?redirect=true` is redirected to the best provider instead, or to a landing page for deprecated namespaces and protected resources (the reference\'s satellite site). Answers carry an ETag and Cache-Control; If-None-Match with the current tag gets 304.',
    parameters: [
      COMPACT_ID(SAMPLE.compactId),
      queryParam('redirect', 'true: redirect to the best provider whatever the Accept header', 'false', { schema: { type: 'string', enum: ['true', 'false'] } }),
    ],
    responses: {
      200: jsonAnswer('The providers of the identifier, in the registry\'s order, each with its recommendation', ref('Resolution'), RESOLUTION),
      302: redirectAnswer('A browser or ?redirect=true: to the provider with the highest recommendation', 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606'),
      304: { description: 'The ETag given in If-None-Match is current' },
      400: jsonAnswer('Not a compact identifier, or the local id does not match the namespace\'s pattern', ref('Resolution'), RESOLUTION_FAILED),
      404: {
        description:
          'No provider for the identifier. A browser or ?redirect=true gets 404 for every failure, with a page: what went wrong in plain words, the namespace\'s page and sample, close prefixes or the identifier mended where one resolves, and a search of the registry',
        content: [
          {
            type: 'application/json',
            schema: ref('Resolution'),
            example: { apiVersion: '1.0', errorMessage: "No namespace found for 'nosuchprefix'", payload: { resolvedResources: null, parsedCompactIdentifier: null } },
          },
          { type: 'text/html', schema: ref('HtmlPage') },
        ],
      },
    },
  },
  {
    methods: ['get'],
    path: '/resolveMirId/{mirId}',
    tag: 'Resolution',
    summary: 'Go to the registry page of the namespace with this MIR id',
    parameters: [pathParam('mirId', 'A namespace\'s or resource\'s MIR id', SAMPLE.namespaceMirId)],
    responses: {
      302: redirectAnswer('To the namespace\'s registry page', `${PUBLIC_REGISTRY}/registry/taxonomy`),
      404: errorAnswer('No namespace or resource has this MIR id', "No namespace or resource has the MIR id 'MIR:99999999'"),
    },
  },
  {
    methods: ['get'],
    path: '/deactivatedLanding/{compactId}',
    tag: 'Resolution',
    summary: 'The landing page of an identifier of a deprecated namespace or provider',
    description: 'Where a browser is sent for them: the deprecation details, every provider and the namespace\'s registry page.',
    parameters: [COMPACT_ID(SAMPLE.deprecatedCompactId)],
    responses: { 200: pageAnswer('The page'), 404: pageAnswer('The identifier does not resolve') },
  },
  {
    methods: ['get'],
    path: '/protectedLanding/{compactId}',
    tag: 'Resolution',
    summary: 'The landing page of an identifier whose provider needs a sign-in',
    parameters: [COMPACT_ID(SAMPLE.compactId)],
    responses: { 200: pageAnswer('The page: how to get access, and every provider'), 404: pageAnswer('The identifier does not resolve') },
  },
  {
    methods: ['post'],
    path: '/resolve/batch',
    tag: 'Resolution',
    summary: 'Resolve many compact identifiers at once',
    description:
      'Each item is answered exactly as GET /{compactId} would answer it, with that call\'s status, in input order, all against one registry snapshot. The batch rate limit counts one per item.',
    addition: 'users asked for batches',
    requestBody: jsonBody('At most 1000 compact identifiers', ref('ResolveBatchRequest'), { apiVersion: '1.0', payload: { compactIdentifiers: ['taxonomy:9606', 'nosuchprefix:1'] } }),
    responses: {
      200: jsonAnswer('One result per item', ref('BatchResolutionAnswer'), {
        apiVersion: '1.0',
        errorMessage: null,
        payload: {
          results: [
            { compactIdentifier: 'chebi:36927', status: 200, errorMessage: null, resolvedResources: [RESOLVED_RESOURCE], parsedCompactIdentifier: RESOLUTION.payload.parsedCompactIdentifier },
            { compactIdentifier: 'nosuchprefix:1', status: 404, errorMessage: "No namespace found for 'nosuchprefix'", resolvedResources: null, parsedCompactIdentifier: null },
          ],
        },
      }),
      400: errorAnswer('Not a list of at most 1000 items', "Invalid payload: 'compactIdentifiers' must be a list"),
      429: HEAVY_REFUSAL,
    },
  },
  {
    methods: ['post'],
    path: '/reverse/byPrefix',
    tag: 'Reverse lookup',
    summary: 'The compact identifier of a provider URL, by the providers\' URL prefixes',
    requestBody: jsonBody('The URL, and its accession when known', ref('ReverseByPrefixRequest'), REVERSE_EXAMPLE),
    responses: {
      200: jsonAnswer('The match', ref('ReverseByPrefixAnswer'), { apiVersion: '1.0', errorMessage: null, payload: REVERSE_MATCH }),
      204: NO_CONTENT,
      400: errorAnswer('No http URL in the payload', 'Invalid payload, HTTP url must be provided'),
    },
  },
  {
    methods: ['post'],
    path: '/reverse/bySimilarity',
    tag: 'Reverse lookup',
    summary: 'The compact identifiers whose provider URLs are most like a URL',
    requestBody: jsonBody('The URL, and its accession when known', ref('ReverseBySimilarityRequest'), REVERSE_EXAMPLE),
    responses: {
      200: jsonAnswer('At most 5 matches, best first', ref('ReverseBySimilarityAnswer'), { apiVersion: '1.0', errorMessage: null, payload: [REVERSE_MATCH] }),
      204: NO_CONTENT,
      400: errorAnswer('No URL in the payload', 'Invalid payload, url must be provided'),
      429: HEAVY_REFUSAL,
    },
  },
  {
    methods: ['post'],
    path: '/reverse/batch',
    tag: 'Reverse lookup',
    summary: 'Many byPrefix lookups at once',
    description: 'One result per item in input order, each with the status and match the single byPrefix call would give.',
    addition: 'batches of reverse lookups',
    requestBody: jsonBody('At most 1000 byPrefix queries', ref('ReverseBatchRequest'), {
      apiVersion: '1.0',
      payload: { requests: [{ url: 'https://www.ncbi.nlm.nih.gov/gene/100010' }, { url: 'ftp://example.org/1' }] },
    }),
    responses: {
      200: jsonAnswer('One result per item', ref('ReverseBatchAnswer'), {
        apiVersion: '1.0',
        errorMessage: null,
        payload: {
          results: [
            { url: 'https://www.ncbi.nlm.nih.gov/gene/100010', status: 200, errorMessage: null, match: REVERSE_MATCH },
            { url: 'ftp://example.org/1', status: 400, errorMessage: 'requests[1]: Invalid payload, HTTP url must be provided', match: null },
          ],
        },
      }),
      400: errorAnswer('Not a list of at most 1000 items', "Invalid payload: 'requests' must be a list"),
      429: HEAVY_REFUSAL,
    },
  },
  ...(['get_all_sample_ids_resolved', 'get_all_home_urls'] as const).map(
    (name): OperationSpec => ({
      methods: ['get'],
      path: `/insightApi/${name}`,
      tag: 'Insight',
      summary:
        name === 'get_all_sample_ids_resolved'
          ? 'Every resource of every namespace resolved with its sample id'
          : 'The same answer as get_all_sample_ids_resolved (as in the reference)',
      description: 'Deprecated namespaces and resources included, each with the default recommendation; parsedCompactIdentifier is null. Counted as a whole-registry download.',
      responses: {
        200: jsonAnswer('Every resource', ref('Resolution'), {
          apiVersion: '1.0',
          errorMessage: null,
          payload: {
            resolvedResources: [{ ...RESOLVED_RESOURCE, recommendation: { recommendationIndex: 0, recommendationExplanation: '--- default explanation ---' } }],
            parsedCompactIdentifier: null,
          },
        }),
        404: errorAnswer('The registry has no provider', 'NO PROVIDERS found in the Resolution Service data set.'),
      },
    }),
  ),
  {
    methods: ['get'],
    path: '/metadataApi/getMetadataFor/{compactId}',
    tag: 'Provider metadata',
    summary: 'The metadata of the page a compact identifier resolves to',
    description: `The page is the provider a redirect would go to (or the provider named as provider/prefix:accession). ${METADATA_DESCRIPTION}`,
    addition: 'identifiers.org\'s metadata service (metadata.api.identifiers.org/{compactId}) on the resolver',
    parameters: [pathParam('compactId', '`prefix:accession` or `provider/prefix:accession`; it may hold `/`, and is percent-decoded once.', SAMPLE.compactId)],
    responses: {
      200: {
        ...metadataAnswer('The page\'s JSON-LD and its meta tags', {
          apiVersion: '1.0',
          errorMessage: null,
          payload: { ...METADATA_PAYLOAD, resolvedFrom: { compactIdentifier: SAMPLE.compactId, namespacePrefix: 'taxonomy', providerCode: 'ncbi', resourceId: 1 } },
        }),
        headers: AGE,
      },
      ...METADATA_FETCH_ANSWERS,
      400: metadataAnswer('Not a compact identifier, a bare prefix, or a local id that does not match the namespace\'s pattern (as the resolver answers it)', metadataFailure("FAILED to fetch metadata for Compact ID 'taxonomy:abc', because For namespace 'taxonomy', provided local ID 'abc' DOES NOT MATCH local IDs definition pattern '^\\d+$'")),
      404: metadataAnswer('Unknown namespace, no provider, or a page with no metadata at all', metadataFailure("FAILED to fetch metadata for Compact ID 'nosuchprefix:1', because the namespace 'nosuchprefix' is not in the registry")),
    },
  },
  {
    methods: ['get'],
    path: '/metadataApi/getMetadataForUrl',
    tag: 'Provider metadata',
    summary: 'The metadata of any page',
    description: `identifiers.org's getMetadataForUrl (a POST of {payload: {url}}, also served) as a GET with the URL in the query. ${METADATA_DESCRIPTION}`,
    addition: 'identifiers.org\'s metadata service on the resolver, as a GET',
    parameters: [queryParam('url', 'The page\'s address: http or https, no credentials, at most 2048 characters', METADATA_PAGE_URL, { required: true })],
    responses: {
      200: { ...metadataAnswer('The page\'s JSON-LD and its meta tags', { apiVersion: '1.0', errorMessage: null, payload: METADATA_PAYLOAD }), headers: AGE },
      ...METADATA_FETCH_ANSWERS,
      400: metadataAnswer('No url, several, or one that is not fetched (not http or https, credentials, too long)', metadataFailure('The URL ftp://example.org/x is not fetched: only http and https URLs are checked')),
      404: metadataAnswer('The page has no metadata at all, or is not HTML', metadataFailure(`No metadata found for URL ${METADATA_PAGE_URL}`, { url: METADATA_PAGE_URL, finalUrl: METADATA_PAGE_URL, fetchedAt: '2026-01-05T10:00:00.000Z', ageSeconds: 5 })),
    },
  },
  {
    methods: ['post'],
    path: '/metadataApi/getMetadataForUrl',
    tag: 'Provider metadata',
    summary: 'The metadata of any page, asked as identifiers.org asks it',
    description: `identifiers.org's getMetadataForUrl: the URL in the request envelope's payload (64 KiB of JSON at most); the same answers as the GET. ${METADATA_DESCRIPTION}`,
    addition: 'identifiers.org\'s metadata service on the resolver',
    requestBody: jsonBody('The page\'s address in the envelope', {
      type: 'object',
      properties: { apiVersion: { type: ['string', 'number'] }, payload: { type: 'object', properties: { url: { type: 'string', maxLength: 2048 } }, required: ['url'] } },
      required: ['payload'],
    }, { apiVersion: '1.0', payload: { url: METADATA_PAGE_URL } }),
    responses: {
      200: { ...metadataAnswer('The page\'s JSON-LD and its meta tags', { apiVersion: '1.0', errorMessage: null, payload: METADATA_PAYLOAD }), headers: AGE },
      ...METADATA_FETCH_ANSWERS,
      400: metadataAnswer('No payload.url, or one that is not fetched (not http or https, credentials, too long)', metadataFailure('Invalid payload: give the page\'s address as {"apiVersion": "1.0", "payload": {"url": "https://..."}}')),
      404: metadataAnswer('The page has no metadata at all, or is not HTML', metadataFailure(`No metadata found for URL ${METADATA_PAGE_URL}`, { url: METADATA_PAGE_URL, finalUrl: METADATA_PAGE_URL, fetchedAt: '2026-01-05T10:00:00.000Z', ageSeconds: 5 })),
      413: errorAnswer('The body is too large', 'Request body is too large'),
      415: errorAnswer('Not JSON', 'Content-Type must be application/json'),
    },
  },
  {
    methods: ['post'],
    path: '/mcp',
    tag: 'MCP',
    summary: 'The MCP server: tools resolve, resolveBest, convert, getSimilar, searchRegistry and describeNamespace, and the reference\'s prompts',
    description:
      'Model Context Protocol over Streamable HTTP, stateless, with JSON answers: one JSON-RPC 2.0 message (or a batch of at most 10) per POST; the client\'s Accept must name application/json and text/event-stream. GET and DELETE are not served (405). Each message counts as a resolution against the rate limit. A heavy request: it counts against the client\'s cap of heavy requests under way (429 beyond it, before the body is read), and its messages are answered in turn with other clients\' heavy work. Only with RESOLVER_MCP on.',
    requestBody: jsonBody(
      'A JSON-RPC 2.0 message or batch',
      { type: ['object', 'array'], description: 'JSON-RPC 2.0 (the MCP SDK checks the messages)' },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'example', version: '1.0' } } },
    ),
    responses: {
      200: jsonAnswer('The JSON-RPC answer(s)', ref('JsonRpcAnswer'), {
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'curie-resolver', version: '0.1.0' } },
      }),
      202: { description: 'A notification or answer from the client was taken (no body)' },
      400: jsonAnswer('Not a JSON body, a batch of more than 10 messages, or a JSON-RPC error', { anyOf: [ref('JsonRpcAnswer'), ref('ErrorEnvelope')] }, {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error' },
      }),
      404: errorAnswer('RESOLVER_MCP is off', 'No such endpoint: POST /mcp'),
      406: jsonAnswer('The Accept header does not name application/json and text/event-stream', ref('JsonRpcAnswer'), {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' },
      }),
      413: errorAnswer('The body is too large', 'Request body is too large'),
      415: errorAnswer('Not JSON', 'Content-Type must be application/json'),
      429: HEAVY_REFUSAL,
    },
  },
  {
    methods: ['get'],
    path: `${RESOLVER_ASSETS_PATH}/{name}`,
    tag: 'Resolution',
    summary: 'The stylesheet of the resolver\'s pages (the registry\'s, public/registry.css)',
    description: 'Linked with `?v=<content hash>`: such an address never changes content and is cached for a year.',
    addition: 'the failure page and `/` share the registry\'s look',
    parameters: [pathParam('name', 'The file', STYLESHEET, { type: 'string', enum: [STYLESHEET] })],
    responses: {
      200: { description: 'The file', content: [{ type: 'text/css', schema: { type: 'string' } }] },
      304: { description: 'The copy the client has is current' },
      404: errorAnswer('No such file', `No such endpoint: GET ${RESOLVER_ASSETS_PATH}/nothing.css`),
    },
  },
  ...HEALTH_OPERATIONS,
  ...METRICS_OPERATIONS,
  ...DOCS_OPERATIONS,
];
