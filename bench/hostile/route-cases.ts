/**
 * Hand-written cases per documented operation, on top of the derived ones: the requests of issue 21's
 * findings and of the earlier hostile rounds that a schema cannot suggest (a date range of 10,000 years,
 * MCP batches, ReDoS patterns, `fields=__proto__`, odd-case paths of the dataset family). Keys are
 * `METHOD /documented/path`; a key that names no documented operation stops the run (run.ts).
 */
import { longSimilarityBody } from '../resolver/noisy-neighbour.js';
import type { HandCase, RouteExtras } from './case-derivation.js';

const json = (value: unknown) => {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  return () => body;
};
const text = (value: string) => {
  const body = Buffer.from(value, 'utf8');
  return () => body;
};

/** What an MCP client must accept (the Streamable HTTP transport refuses others with 406). */
const MCP_ACCEPT = 'application/json, text/event-stream';
/** The largest JSON-RPC batch /mcp takes, and the batch items of /resolve/batch and /reverse/batch. */
const MCP_BATCH = 100;
const BATCH_ITEMS = 1000;
/** ncbiprotein identifiers of 2,061 characters that fit a batch's 1 MiB body. */
const HOSTILE_LUIS_PER_BATCH = 480;
/**
 * Suffix passthrough's most costly request (run.ts turns it on for ncbiprotein and taxonomy): 16 split
 * points (all that are tried) with heads of 224 to 254 characters (at most 256 are tried), each longer head
 * refused only at its end by the linear-time engine, the shortest matching: 16 matches, then a 200 with a
 * suffix of 832 characters (1,024 at most are passed through).
 */
const SPLIT_EVERYWHERE_LUI = `${'0'.repeat(224)}${'.a'.repeat(16)}${'/b'.repeat(400)}`;

const rpc = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
const rpcBatch = (make: (id: number) => unknown, size = MCP_BATCH) => json(Array.from({ length: size }, (_, i) => make(i + 1)));

const LONG_URL = `https://www.ebi.ac.uk/${'abcdefghij/'.repeat(180)}x`;

/** Date ranges of the statistics and the diff: far beyond any bound, at the bound, and wrong. */
const statisticsRanges = (): HandCase[] => [
  { label: 'day, 0001-01-01 to 9999-12-31', query: 'period=day&from=0001-01-01&to=9999-12-31' },
  { label: 'month, 0001-01-01 to 9999-12-31', query: 'period=month&from=0001-01-01&to=9999-12-31' },
  { label: 'day, 366 days', query: 'period=day&from=2024-01-01&to=2024-12-31' },
  { label: 'month, 100 years', query: 'period=month&from=1925-01-01&to=2024-12-31' },
  { label: 'day, to before from', query: 'period=day&from=2024-12-31&to=2024-01-01' },
  { label: 'day, 2024-02-30', query: 'period=day&from=2024-02-30&to=2024-03-01' },
];

/** The dataset family in mixed case (the derived cases add upper and lower case). */
const mixedCase = (path: string): HandCase => ({ label: 'path in mixed case', path: path.replace(/[a-z]/g, (c, i: number) => (i % 2 ? c.toUpperCase() : c)) });

/** The SPARQL endpoint's costliest queries: joins without end, a sort of all of them, every triple, many sameAs IRIs. */
const sparqlCases = (): { label: string; query: string }[] => [
  { label: 'cross join of three patterns, counted', query: 'SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }' },
  { label: 'cross join of two patterns, sorted', query: 'SELECT * WHERE { ?a ?b ?c . ?d ?e ?f } ORDER BY ?c ?f LIMIT 5' },
  { label: 'every triple', query: 'SELECT * WHERE { ?s ?p ?o }' },
  { label: 'CONSTRUCT every triple', query: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }' },
  {
    label: '400 identifiers.org URIs joined with their providers',
    query: `SELECT ?id ?url WHERE { VALUES ?id { ${Array.from({ length: 400 }, (_, i) => `<https://identifiers.org/taxonomy:${i + 1}>`).join(' ')} } ?id <http://www.w3.org/2002/07/owl#sameAs> ?url }`,
  },
];

const wholeFeed = (): HandCase[] => [{ label: 'whole feed, 1,000 a page', query: 'limit=1000' }];

export const ROUTE_CASES: Readonly<Record<string, RouteExtras>> = {
  'GET /{compactId}': {
    cases: (ctx) => [
      { label: 'accession of 4,000 chars', path: `/${ctx.prefix}:${'9'.repeat(4000)}` },
      { label: 'prefix of 4,000 chars', path: `/${'a'.repeat(4000)}:1` },
      // ncbiprotein's `^\w+_?\d+(.\d+)?$` took 12.9 s to refuse this before the linear-time engine (issue 10);
      // test/integration/resolver-hostile-patterns.test.ts asserts the refusal, this measures how fast it is.
      { label: 'LUI a backtracking pattern chokes on (ncbiprotein)', path: `/ncbiprotein:${'0'.repeat(2047)}!` },
      { label: 'suffix passthrough, 16 split points on heads of 224-254 chars (ncbiprotein)', path: `/ncbiprotein:${SPLIT_EVERYWHERE_LUI}` },
      { label: 'suffix passthrough, 4,000-char suffix redirected', path: `/${ctx.curie}/${'a'.repeat(4000)}`, headers: { Accept: 'text/html' } },
      { label: 'suffix passthrough, dot segments and CR LF', path: `/${ctx.curie}/${'..%2F'.repeat(400)}%0D%0Ax?redirect=true` },
      { label: 'provider code and redirect', path: `/ebi/${ctx.curie}?redirect=true` },
      { label: 'bare prefix', path: `/${ctx.prefix}` },
      { label: 'NUL in the accession', path: `/${ctx.prefix}:1%002` },
      { label: 'HTML page', path: `/${ctx.curie}`, headers: { Accept: 'text/html' } },
      // The failure page's advice: close prefixes of a long unknown one, mending a long refused LUI.
      { label: 'failure page, prefix of 4,000 chars', path: `/${'a'.repeat(4000)}:1`, headers: { Accept: 'text/html' } },
      { label: 'failure page, close prefixes rewritten', path: `/${ctx.prefix}x:${'9'.repeat(4000)}`, headers: { Accept: 'text/html' } },
      { label: 'failure page, LUI of 4,000 slashes to mend', path: `/${ctx.prefix}:${'/'.repeat(4000)}x`, headers: { Accept: 'text/html' } },
      { label: 'failure page, provider code of 4,000 chars', path: `/${'C'.repeat(4000)}/${ctx.curie}`, headers: { Accept: 'text/html' } },
    ],
  },
  // No worker runs in the benchmark: a lookup enqueues (one job per page, whatever the repeats) and waits
  // METADATA_WAIT_MS, so these measure the resolver's side, its refusals and the queue bound.
  'GET /metadataApi/getMetadataFor/{compactId}': {
    cases: (ctx) => [
      { label: 'accession of 4,000 chars', path: `/metadataApi/getMetadataFor/${ctx.prefix}:${'9'.repeat(4000)}` },
      { label: 'provider code of 4,000 chars', path: `/metadataApi/getMetadataFor/${'C'.repeat(4000)}/${ctx.curie}` },
      { label: 'unknown prefix of 4,000 chars', path: `/metadataApi/getMetadataFor/${'a'.repeat(4000)}:1` },
      { label: 'bare prefix', path: `/metadataApi/getMetadataFor/${ctx.prefix}` },
      { label: 'LUI a backtracking pattern chokes on (ncbiprotein)', path: `/metadataApi/getMetadataFor/ncbiprotein:${'0'.repeat(2047)}!` },
    ],
  },
  'GET /metadataApi/getMetadataForUrl': {
    cases: () => [
      { label: 'URL of 2,049 chars', query: `url=${encodeURIComponent(`https://example.org/${'a'.repeat(2029)}`)}` },
      { label: 'cloud metadata address', query: `url=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}` },
      { label: 'loopback address', query: `url=${encodeURIComponent('http://127.0.0.1:6379/')}` },
      { label: 'file URL', query: `url=${encodeURIComponent('file:///etc/passwd')}` },
      { label: 'credentials in the URL', query: `url=${encodeURIComponent('https://user:secret@example.org/')}` },
      { label: 'no url', query: '' },
    ],
  },
  'POST /metadataApi/getMetadataForUrl': {
    cases: () => [
      { label: 'cloud metadata address', body: json({ apiVersion: '1.0', payload: { url: 'http://169.254.169.254/latest/meta-data/' } }) },
      { label: 'URL of 2,049 chars', body: json({ apiVersion: '1.0', payload: { url: `https://example.org/${'a'.repeat(2029)}` } }) },
      { label: 'url not a string', body: json({ apiVersion: '1.0', payload: { url: { toString: 'x' } } }) },
    ],
  },
  'GET /': {
    cases: () => [{ label: 'page for a browser', path: '/', headers: { Accept: 'text/html' } }],
  },
  'POST /resolve/batch': {
    cases: (ctx) => [
      {
        label: `${BATCH_ITEMS} real identifiers`,
        body: json({ apiVersion: '1.0', payload: { compactIdentifiers: Array.from({ length: BATCH_ITEMS }, (_, i) => ctx.curies[i % ctx.curies.length]) } }),
      },
      {
        // What test/integration/resolver-hostile-patterns.test.ts refuses, here for how fast: as many as the
        // 1 MiB batch body holds.
        label: `${HOSTILE_LUIS_PER_BATCH} LUIs a backtracking pattern chokes on (ncbiprotein)`,
        body: json({ apiVersion: '1.0', payload: { compactIdentifiers: Array.from({ length: HOSTILE_LUIS_PER_BATCH }, (_, i) => `ncbiprotein:${String(i).padStart(2047, '0')}!`) } }),
      },
      {
        label: `${HOSTILE_LUIS_PER_BATCH} LUIs split 16 times each (suffix passthrough, ncbiprotein)`,
        body: json({ apiVersion: '1.0', payload: { compactIdentifiers: Array.from({ length: HOSTILE_LUIS_PER_BATCH }, () => `ncbiprotein:${SPLIT_EVERYWHERE_LUI}`) } }),
      },
      {
        label: `${BATCH_ITEMS} identifiers of 1,000 chars`,
        body: json({ apiVersion: '1.0', payload: { compactIdentifiers: Array.from({ length: BATCH_ITEMS }, (_, i) => `${ctx.prefix}:${String(i).padEnd(1000, '7')}`) } }),
      },
    ],
  },
  'POST /reverse/batch': {
    cases: () => [
      {
        label: `${BATCH_ITEMS} long URLs`,
        body: json({ apiVersion: '1.0', payload: { requests: Array.from({ length: BATCH_ITEMS }, (_, i) => ({ url: `${LONG_URL.slice(0, 1000)}${i}`, accession: `Q9${i}` })) } }),
      },
    ],
  },
  'POST /reverse/bySimilarity': { cases: () => [{ label: 'URL of 2,000 chars, accession not in it', body: text(longSimilarityBody(2000)) }] },
  'POST /reverse/byPrefix': { cases: () => [{ label: 'URL of 4,000 chars', body: json({ apiVersion: '1.0', payload: { url: LONG_URL.slice(0, 4000), accession: null } }) }] },
  'POST /mcp': {
    headers: { Accept: MCP_ACCEPT },
    cases: (ctx) => [
      { label: `batch of ${MCP_BATCH} tools/list`, body: rpcBatch((id) => rpc(id, 'tools/list')) },
      {
        label: `batch of ${MCP_BATCH} tools/call resolve`,
        body: rpcBatch((id) => rpc(id, 'tools/call', { name: 'resolve', arguments: { curie: ctx.curies[id % ctx.curies.length] } })),
      },
      {
        label: `batch of ${MCP_BATCH} tools/call searchRegistry`,
        body: rpcBatch((id) => rpc(id, 'tools/call', { name: 'searchRegistry', arguments: { query: 'a', limit: 100 } })),
      },
      {
        label: `batch of ${MCP_BATCH} tools/call getSimilar, long URLs`,
        body: rpcBatch((id) => rpc(id, 'tools/call', { name: 'getSimilar', arguments: { providerUrl: LONG_URL.slice(0, 2000), accession: `Q${id}` } })),
      },
      { label: `batch of ${MCP_BATCH + 1} pings`, body: rpcBatch((id) => rpc(id, 'ping'), MCP_BATCH + 1) },
      { label: 'Accept without text/event-stream', headers: { Accept: 'application/json' } },
      { label: 'initialize', body: json(rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } })) },
    ],
  },
  'GET /statistics/namespace/{prefix}': { cases: statisticsRanges },
  'GET /resolutionApi/getResolverDataset': {
    cases: () => [
      mixedCase('/resolutionApi/getResolverDataset'),
      { label: 'rewritten, gzip', query: 'rewriteForEmbeddedPrefixes=true', headers: { 'Accept-Encoding': 'gzip' } },
    ],
  },
  'GET /resolutionApi/export/{format}': {
    cases: () => [mixedCase('/resolutionApi/export/registry.ttl'), { label: 'resources.csv, lower-case family', path: '/resolutionapi/export/resources.csv' }],
  },
  'GET /resolutionApi/diff': {
    cases: () => [
      { label: 'DIFF in upper case, 0001-01-01 to current', path: '/resolutionApi/DIFF?from=0001-01-01&to=current' },
      { label: 'from 0001-01-01 to 9999-12-31', query: 'from=0001-01-01&to=9999-12-31' },
    ],
  },
  // Oxigraph evaluates in the SPARQL threads, never on the loop: a cross join runs into the time limit (503),
  // the flood's further ones are the client's cap (429); the loop only hands queries over.
  'GET /sparql': { cases: () => sparqlCases().map(({ label, query }) => ({ label, query: `query=${encodeURIComponent(query)}` })) },
  'POST /sparql': {
    cases: () => [
      ...sparqlCases().map(({ label, query }) => ({ label, contentType: 'application/sparql-query', body: text(query) })),
      { label: 'query of 20,001 characters', contentType: 'application/sparql-query', body: text(`ASK {} #${'x'.repeat(19_994)}`) },
      { label: 'SPARQL Update', contentType: 'application/sparql-update', body: text('INSERT DATA { <http://e.org/a> <http://e.org/b> <http://e.org/c> }') },
    ],
  },
  'GET /changes': { cases: wholeFeed },
  // Behind SATELLITE_TOKEN, which the attacker lacks: each must be refused before any work, a body unread.
  'GET /satelliteApi/namespaces': {
    cases: () => [
      { label: '200 ids', query: `ids=${Array.from({ length: 200 }, (_, i) => i + 1).join(',')}` },
      { label: '1,000 ids', query: `ids=${Array.from({ length: 1000 }, (_, i) => i + 1).join(',')}` },
    ],
  },
  'POST /satelliteApi/usage': {
    cases: () => {
      const today = new Date().toISOString().slice(0, 10);
      const visitors = Array.from({ length: 1000 }, (_, i) => `visitor${String(i).padStart(15, '0')}`);
      return [
        { label: 'body of 4 MiB', body: text(`{"batchId":"${'b'.repeat(20)}","entries":[],"x":"${'x'.repeat(4 * 1024 * 1024)}"}`) },
        { label: '2,000 entries of 1,000 visitors', body: json({ batchId: 'hostile-batch-0123456789', entries: Array.from({ length: 2000 }, () => ({ day: today, prefix: 'go', visits: 1, visitors })) }) },
      ];
    },
  },
  'GET /changes.atom': { cases: wholeFeed },
  'GET /ebisearch/ws/rest/identifiers_registry': {
    cases: () => [
      ...['__proto__', '__defineGetter__', 'constructor', 'hasOwnProperty', 'toString'].map((field) => ({ label: `everything, fields=${field}`, query: `query=*:*&fields=${field}` })),
      { label: 'everything, every field 100 times', query: `query=*:*&size=100000&fields=${Array.from({ length: 100 }, () => 'name,prefix,description').join(',')}` },
    ],
  },
  'GET /registryInsightApi/getEbiSearchDataset': { cases: () => [mixedCase('/registryInsightApi/getEbiSearchDataset')] },
  'GET /registry/search': { cases: () => [{ label: 'one letter, 100 a page', query: 'q=a&size=100' }] },
  'GET /registry': { cases: () => [{ label: 'one letter, page 1,000,000', query: 'q=a&page=1000000' }] },
  'GET /reverse-lookup': { cases: () => [{ label: 'URL of 4,000 chars', query: `url=${encodeURIComponent(LONG_URL.slice(0, 4000))}` }] },
  'GET /restApi/namespaces': {
    cases: () => [{ label: '1,000 a page, sorted by five properties', query: 'size=1000&page=0&sort=name,desc&sort=prefix&sort=mirId&sort=created,desc&sort=description' }],
  },
  'GET /restApi/resources': { cases: () => [{ label: '1,000 a page, sorted', query: 'size=1000&page=0&sort=name,desc&sort=providerCode' }] },
  'GET /restApi/namespaces/search/findByPrefixContaining': { cases: () => [{ label: 'one letter, 1,000 a page', query: 'content=a&size=1000' }] },
  'POST /prefixRegistrationApi/validateIdRegexPattern': {
    cases: () => [
      { label: 'ReDoS pattern with a failing sample', body: json({ apiVersion: '1.0', payload: { idRegexPattern: '^(a+)+$', sampleId: `${'a'.repeat(40)}!` } }) },
      { label: 'pattern of 2,000 alternations', body: json({ apiVersion: '1.0', payload: { idRegexPattern: `^(${Array.from({ length: 2000 }, (_, i) => `a${i}`).join('|')})$` } }) },
    ],
  },
  'POST /curation/sign-in': { cases: () => [{ label: 'wrong curator token', body: text('csrf=x&token=wrong-token-0123456789&next=%2Fcuration') }] },
  'POST /prefixRegistrationApi/registerPrefix': { cases: () => [{ label: 'Idempotency-Key of 255 chars', headers: { 'Idempotency-Key': 'k'.repeat(255) } }] },
};
