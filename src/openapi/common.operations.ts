/** What both areas answer alike: the health checks (base-app.ts) and this document with its docs page. */
import { errorAnswer, HTML_TYPE, jsonAnswer, pathParam, type OperationSpec } from './operation.js';
import { ref } from './schema-kit.js';

export const HEALTH_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/health/live',
    tag: 'Health',
    summary: 'Whether the process answers (a liveness probe)',
    addition: 'the probes of a balancer or an orchestrator (the reference has Spring\'s /actuator/health)',
    rateLimited: false,
    responses: { 200: jsonAnswer('The process answers', ref('Liveness'), { apiVersion: '1.0', errorMessage: null, payload: { status: 'ok' } }) },
  },
  {
    methods: ['get'],
    path: '/health/ready',
    tag: 'Health',
    summary: 'Whether the area can serve (a readiness probe): its dependencies answer',
    description: 'The resolver serves from its snapshot when Postgres or Redis is down: it is then degraded (200), never unavailable.',
    addition: 'the probes of a balancer or an orchestrator',
    rateLimited: false,
    responses: {
      200: jsonAnswer('Ready (ok), or serving in a degraded way', ref('Readiness'), {
        apiVersion: '1.0',
        errorMessage: null,
        payload: { status: 'ok', checks: { postgres: 'ok', redis: 'ok' } },
      }),
      503: jsonAnswer('Not ready', ref('Readiness'), {
        apiVersion: '1.0',
        errorMessage: 'Not ready: postgres: connection refused',
        payload: { status: 'unavailable', reason: 'postgres: connection refused', checks: { postgres: 'failing: connection refused', redis: 'ok' } },
      }),
    },
  },
];

export const METRICS_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/metrics',
    tag: 'Health',
    summary: 'Prometheus metrics of this area (requests by route family and status, latencies, and the area\'s own)',
    description:
      'With METRICS_TOKEN set, only for `Authorization: Bearer <METRICS_TOKEN>`. With RESOLVER_METRICS_PORT or REGISTRY_METRICS_PORT set, served on that port instead (and not here). Never rate limited: the text is rendered at most once a second and shared by every scrape of that second (curie_metrics_renders_total counts the renders), so scrapes cost next to nothing and figures are at most about a second old.',
    addition: 'metrics for operators',
    access: 'metrics',
    rateLimited: false,
    responses: {
      200: {
        description: 'The Prometheus text exposition format',
        content: [{ type: 'text/plain', schema: { type: 'string' }, example: '# HELP curie_http_requests_total Requests answered\n# TYPE curie_http_requests_total counter\n' }],
      },
      401: { description: 'METRICS_TOKEN is set and the request does not carry it (WWW-Authenticate)' },
      404: errorAnswer('Served on a port of its own (RESOLVER_METRICS_PORT, REGISTRY_METRICS_PORT)', 'No such endpoint: GET /metrics'),
    },
  },
];

export const DOCS_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/openapi.json',
    tag: 'Documentation',
    summary: 'This OpenAPI 3.1 document',
    addition: 'the interface described from the schemas the routes validate with',
    responses: { 200: { description: 'The document', content: [{ type: 'application/json', schema: { type: 'object', required: ['openapi'], properties: { openapi: { const: '3.1.0' } } } }] } },
  },
  {
    methods: ['get'],
    path: '/docs',
    tag: 'Documentation',
    summary: 'Interactive documentation of this area (Swagger UI)',
    addition: 'a page to read and try the interface',
    responses: { 200: { description: 'The page', content: [{ type: HTML_TYPE, schema: ref('HtmlPage') }] } },
  },
  {
    methods: ['get'],
    path: '/docs/assets/{name}',
    tag: 'Documentation',
    summary: 'A file of the docs page (Swagger UI\'s script and stylesheet, the page\'s initializer)',
    description: 'Linked with `?v=<content hash>`: such an address never changes content and is cached for a year.',
    addition: 'the docs page\'s files, served from the swagger-ui-dist package',
    parameters: [pathParam('name', 'The file', 'swagger-ui.css', { type: 'string', enum: ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-initializer.js'] })],
    responses: {
      200: { description: 'The file', content: [{ type: 'text/css', schema: { type: 'string' } }, { type: 'text/javascript', schema: { type: 'string' } }] },
      304: { description: 'The copy the client has is current' },
      404: errorAnswer('No such file', 'No such endpoint: GET /docs/assets/nothing.js'),
    },
  },
];
