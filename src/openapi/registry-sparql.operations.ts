/** The registry's SPARQL endpoint (registry/sparql): SPARQL 1.1 Protocol queries over the registry's RDF. */
import { PUBLIC_REGISTRY } from './examples.js';
import { errorAnswer, FORM_TYPE, queryParam, type OperationSpec, type ResponseSpec } from './operation.js';

const EXAMPLE_QUERY =
  'PREFIX owl: <http://www.w3.org/2002/07/owl#> SELECT ?url WHERE { <https://identifiers.org/taxonomy:9606> owl:sameAs ?url }';

const SPARQL_JSON_RESULTS = {
  type: 'object',
  description: 'SPARQL 1.1 Query Results JSON Format: `head` with the variables, then `results.bindings` (SELECT) or `boolean` (ASK)',
  required: ['head'],
  properties: {
    head: { type: 'object', additionalProperties: true },
    results: { type: 'object', properties: { bindings: { type: 'array', items: { type: 'object', additionalProperties: true } } }, additionalProperties: true },
    boolean: { type: 'boolean' },
  },
  additionalProperties: true,
};

const ANSWER: ResponseSpec = {
  description:
    'SELECT and ASK: SPARQL JSON results (the default; also for application/json), SPARQL XML results (also application/xml, text/xml), CSV or TSV by Accept. CONSTRUCT and DESCRIBE: Turtle (the default), N-Triples (also text/plain) or RDF/XML by Accept.',
  content: [
    {
      type: 'application/sparql-results+json',
      schema: SPARQL_JSON_RESULTS,
      example: { head: { vars: ['url'] }, results: { bindings: [{ url: { type: 'uri', value: 'https://purl.uniprot.org/taxonomy/9606' } }] } },
    },
    { type: 'application/sparql-results+xml', schema: { type: 'string' } },
    { type: 'text/csv', schema: { type: 'string' } },
    { type: 'text/tab-separated-values', schema: { type: 'string' } },
    { type: 'text/turtle', schema: { type: 'string' }, example: `<${PUBLIC_REGISTRY}/registry/taxonomy> <http://purl.org/dc/terms/title> "Taxonomy" .\n` },
    { type: 'application/n-triples', schema: { type: 'string' } },
    { type: 'application/rdf+xml', schema: { type: 'string' } },
  ],
};

const DESCRIPTION = [
  'A read-only SPARQL 1.1 Protocol endpoint over the registry as RDF (the dataset build\'s registry.nt: namespaces, resources and institutions with dcterms, idot, void and foaf terms), evaluated by Oxigraph in worker threads.',
  'For each http(s) IRI written out in the query (`<...>`, at most 500), the query also sees `owl:sameAs` links: from a resolver URI of a compact identifier (https://identifiers.org/prefix:lui, http://identifiers.org/..., or this deployment\'s resolver URL) to each provider\'s URL for it, and from a provider URL to the compact identifier\'s resolver URIs, as the resolver resolves and reverse-looks-up.',
  'Bounds: SPARQL_MAX_QUERY_LENGTH characters (414 in the URL, 413 in a body); SPARQL_TIMEOUT_MS of evaluation, then the query is stopped (503); answers of SPARQL_MAX_RESULT_BYTES at most (400 beyond, nothing truncated); SPARQL_QUERIES_PER_CLIENT queries waiting or running per client (429). SPARQL Update is refused (400).',
].join('\n\n');

const ERRORS: Readonly<Record<number, ResponseSpec>> = {
  400: errorAnswer(
    'Malformed query (with the parser\'s message), SPARQL Update (read-only), an answer over the size limit, no query, or a dataset parameter',
    'Malformed or unanswerable SPARQL query: error at 1:24: expected one of ...',
  ),
  429: errorAnswer(
    'The client has as many queries waiting or running as it may (with Retry-After), or is over the browse rate limit',
    'Too many SPARQL queries from your address are under way (at most 2 at once); send the next one when one has been answered',
  ),
  503: errorAnswer(
    'The query ran into the time limit and was stopped, the threads are busy, or the registry\'s RDF is not built yet (with Retry-After)',
    'The query ran longer than the time limit of 5000 ms and was stopped; narrow it (fewer joins, a LIMIT) and send it again',
  ),
};

export const SPARQL_OPERATIONS: readonly OperationSpec[] = [
  {
    methods: ['get'],
    path: '/sparql',
    tag: 'SPARQL',
    summary: 'A SPARQL query in the URL (SPARQL 1.1 Protocol, query via GET)',
    description: DESCRIPTION,
    addition: 'identifiers.org\'s SPARQL endpoint: the registry as RDF, with owl:sameAs links for federated queries',
    parameters: [
      queryParam('query', 'The SPARQL query (SELECT, ASK, CONSTRUCT or DESCRIBE)', EXAMPLE_QUERY, { required: true, schema: { type: 'string', maxLength: 20000 } }),
    ],
    responses: {
      200: ANSWER,
      ...ERRORS,
      414: errorAnswer('The query is longer than SPARQL_MAX_QUERY_LENGTH', 'The query is 20001 characters long, more than the limit of 20000'),
    },
  },
  {
    methods: ['post'],
    path: '/sparql',
    tag: 'SPARQL',
    summary: 'A SPARQL query in the body (SPARQL 1.1 Protocol: application/sparql-query, or the form field query)',
    description: DESCRIPTION,
    addition: 'identifiers.org\'s SPARQL endpoint, for queries too long for a URL',
    requestBody: {
      description: 'The query as the body, or as the `query` field of a form (`application/sparql-update` and an `update` field are refused: the endpoint is read-only)',
      content: [
        { type: 'application/sparql-query', schema: { type: 'string', maxLength: 20000 }, example: EXAMPLE_QUERY },
        {
          type: FORM_TYPE,
          schema: { type: 'object', required: ['query'], properties: { query: { type: 'string', maxLength: 20000 } }, additionalProperties: false },
          example: { query: EXAMPLE_QUERY },
        },
      ],
    },
    responses: {
      200: ANSWER,
      ...ERRORS,
      413: errorAnswer('The query is longer than SPARQL_MAX_QUERY_LENGTH', 'The query is 20001 characters long, more than the limit of 20000'),
      415: errorAnswer('Another body type', "Unsupported Content-Type 'text/plain'; send the query as application/sparql-query, or as the 'query' field of an application/x-www-form-urlencoded form"),
    },
  },
];
