/**
 * Issue 15 item 5: the resolver's MCP server at /mcp, driven by the SDK's own Client over its Streamable HTTP
 * transport against the resolver area listening on loopback, with the sample registry. Each tool answers
 * what the resolver's HTTP route of the same meaning answers (asked on the same server); bad arguments are
 * MCP errors, and the server goes on answering after them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { REGISTRY_URL, RESOLVER_URL, startResolver, type ResolverUnderTest } from '../support/areas.js';
import { startRawServer, type RawServer } from '../support/raw-http.js';

interface SampleNamespace {
  prefix: string;
  sampleId: string;
  description: string;
  resources: unknown[];
}
const SAMPLE = JSON.parse(readFileSync(path.resolve('seeds/sample-registry.json'), 'utf8')) as SampleNamespace[];

const MCP_ACCEPT = 'application/json, text/event-stream';
const TAXONOMY_URL = 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606';

let r: ResolverUnderTest;
let server: RawServer;
let client: Client;

async function connectClient(port: number): Promise<Client> {
  const c = new Client({ name: 'resolver-mcp-test', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return c;
}

beforeAll(async () => {
  r = await startResolver('resolver_mcp');
  server = await startRawServer(r.app);
  client = await connectClient(server.port);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
  await r?.close();
});

const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

/** The structured answer of a successful call, checked against the JSON text of the same answer. */
async function structured<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(name, args);
  expect(result.isError ?? false).toBe(false);
  expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
  return result.structuredContent as T;
}

async function errorText(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(name, args);
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
}

const getJson = (p: string) => server.send({ method: 'GET', path: p, headers: { Accept: 'application/json' } });
const postJson = (p: string, payload: unknown) =>
  server.send({ method: 'POST', path: p, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: '1.0', payload }) });
const postMcp = (body: string, headers: Record<string, string> = {}) =>
  server.send({ method: 'POST', path: '/mcp', headers: { 'Content-Type': 'application/json', Accept: MCP_ACCEPT, ...headers }, body });

describe('listing', () => {
  it('lists the six tools with their arguments, each read-only', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['convert', 'describeNamespace', 'getSimilar', 'resolve', 'resolveBest', 'searchRegistry']);
    expect(byName.resolve!.inputSchema.required).toEqual(['curie']);
    expect(byName.resolveBest!.inputSchema.required).toEqual(['curie']);
    expect(Object.keys(byName.convert!.inputSchema.properties ?? {})).toEqual(['providerUrl', 'accession']);
    expect(byName.convert!.inputSchema.required).toEqual(['providerUrl']);
    expect(byName.getSimilar!.inputSchema.required).toEqual(['providerUrl']);
    expect(byName.searchRegistry!.inputSchema.required).toEqual(['query']);
    expect(byName.describeNamespace!.inputSchema.required).toEqual(['prefix']);
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  it("lists the reference's three prompts, convert-url-to-idorg-uri with the arguments it reads", async () => {
    const { prompts } = await client.listPrompts();
    const args = Object.fromEntries(prompts.map((p) => [p.name, (p.arguments ?? []).map((a) => `${a.name}${a.required ? '' : '?'}`)]));
    expect(args).toEqual({
      'resolve-all-curie-urls': ['curie'],
      'resolve-best-curie-url': ['curie'],
      'convert-url-to-idorg-uri': ['providerUrl', 'accession?'],
    });
  });
});

describe('resolve', () => {
  it('answers the URLs of GET /{curie}, in its order', async () => {
    for (const curie of ['taxonomy:9606', 'CHEBI:36927', 'ebi/CHEBI:36927', 'taxonomy', 'pdb:2gc4']) {
      const http = JSON.parse((await getJson(`/${curie}`)).text) as { payload: { resolvedResources: { compactIdentifierResolvedUrl: string }[] } };
      const urls = http.payload.resolvedResources.map((x) => x.compactIdentifierResolvedUrl);
      expect(urls.length).toBeGreaterThan(0);
      expect(await structured('resolve', { curie })).toEqual({ urls, errorMessage: null });
    }
  });

  it('answers no URL, and the resolution message, when the identifier does not resolve', async () => {
    for (const curie of ['taxonomy:abc', 'nosuchprefix:1', 'foo/taxonomy:9606']) {
      const http = await getJson(`/${curie}`);
      expect(http.status).not.toBe(200);
      const { errorMessage } = JSON.parse(http.text) as { errorMessage: string };
      expect(await structured('resolve', { curie })).toEqual({ urls: [], errorMessage });
    }
  });
});

describe('resolveBest', () => {
  it("answers exactly the browser redirect's Location for every sample namespace's sample id and for a provider code", async () => {
    const curies = [...SAMPLE.map((ns) => `${ns.prefix}:${ns.sampleId}`), 'ebi/CHEBI:36927', 'ols/go:0006915'];
    for (const curie of curies) {
      const res = await server.send({ method: 'GET', path: `/${encodeURI(curie).replace(/[?#]/g, encodeURIComponent)}`, headers: { Accept: 'text/html' } });
      expect({ curie, status: res.status }).toEqual({ curie, status: 302 });
      expect({ curie, ...(await structured<{ url: string }>('resolveBest', { curie })) }).toEqual({ curie, url: res.headers.location });
    }
  });

  it('is the deprecated landing page of a deprecated namespace, as the redirect', async () => {
    expect(await structured('resolveBest', { curie: '3dmet:B00162' })).toEqual({ url: `${RESOLVER_URL}/deactivatedLanding/3dmet:B00162` });
  });

  it('is an error with the resolution message when the identifier does not resolve', async () => {
    expect(await errorText('resolveBest', { curie: 'taxonomy:abc' })).toMatch(/DOES NOT MATCH local IDs definition pattern/);
    expect(await errorText('resolveBest', { curie: 'foo/taxonomy:9606' })).toMatch(/NO RESOURCES FOUND with PROVIDER CODE 'foo'/);
  });
});

describe('convert and getSimilar', () => {
  const urls: Array<[string, string | undefined]> = [
    [TAXONOMY_URL, undefined],
    ['https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927', 'CHEBI:36927'],
    ['https://www.uniprot.org/uniprotkb/P0DP23/entry', 'P0DP23'],
    ['https://www.uniprot.org/uniprotkb/P0DP23/entry', undefined],
    ['https://example.org/nothing/here/42', undefined],
  ];

  it("convert answers byPrefix's possible_resolver_url and curie (null without a match)", async () => {
    let matched = 0;
    for (const [url, accession] of urls) {
      const http = await postJson('/reverse/byPrefix', { url, accession });
      const match = http.status === 200 ? (JSON.parse(http.text) as { payload: { possible_resolver_url: string | null; possible_resolver_curie: string | null } }).payload : null;
      if (match?.possible_resolver_url) matched++;
      expect(await structured('convert', accession === undefined ? { providerUrl: url } : { providerUrl: url, accession })).toEqual({
        url: match?.possible_resolver_url ?? null,
        curie: match?.possible_resolver_curie ?? null,
      });
    }
    expect(matched).toBeGreaterThanOrEqual(2);
    expect(await structured('convert', { providerUrl: TAXONOMY_URL })).toEqual({ url: `${RESOLVER_URL}/taxonomy:9606`, curie: 'taxonomy:9606' });
  });

  it("getSimilar answers bySimilarity's possible_resolver_url of each match, in its order", async () => {
    for (const [url, accession] of urls) {
      const http = await postJson('/reverse/bySimilarity', { url, accession });
      const matches = http.status === 200 ? (JSON.parse(http.text) as { payload: { possible_resolver_url: string | null }[] }).payload : [];
      const answer = await structured<{ urls: (string | null)[] }>('getSimilar', accession === undefined ? { providerUrl: url } : { providerUrl: url, accession });
      expect(answer).toEqual({ urls: matches.map((m) => m.possible_resolver_url) });
    }
    const taxonomy = await structured<{ urls: (string | null)[] }>('getSimilar', { providerUrl: TAXONOMY_URL });
    expect(taxonomy.urls[0]).toBe(`${RESOLVER_URL}/taxonomy:9606`);
  });

  it('refuses what the reverse lookups refuse, with their message', async () => {
    expect(await errorText('convert', { providerUrl: 'ftp://example.org/1' })).toBe('Invalid payload, HTTP url must be provided');
    expect(await errorText('getSimilar', { providerUrl: 'not a url' })).toBe('Invalid payload, url must be provided');
    expect(await errorText('getSimilar', { providerUrl: `https://example.org/${'a'.repeat(2100)}` })).toMatch(/at most 2048 characters/);
  });
});

describe('searchRegistry and describeNamespace', () => {
  it('finds the prefix that is the text first, then prefixes starting with it, then names holding it', async () => {
    const found = await structured<{ total: number; namespaces: { prefix: string }[] }>('searchRegistry', { query: 'go' });
    expect(found.namespaces[0]!.prefix).toBe('go');
    const taxo = await structured<{ query: string; total: number; namespaces: { prefix: string; name: string; mirId: string }[] }>('searchRegistry', {
      query: '  TAXO ',
    });
    expect(taxo.query).toBe('TAXO');
    expect(taxo.namespaces.map((n) => n.prefix)).toEqual(['taxonomy']);
    expect(taxo.total).toBe(1);
    // Words starting the name's words, in any order.
    const byWords = await structured<{ namespaces: { prefix: string }[] }>('searchRegistry', { query: 'ontol gene' });
    expect(byWords.namespaces.map((n) => n.prefix)).toEqual(['go']);
    // Prefixes starting with the text come before prefixes and names that only hold it.
    const prot = await structured<{ namespaces: { prefix: string }[] }>('searchRegistry', { query: 'p' });
    expect(prot.namespaces.slice(0, 3).map((n) => n.prefix)).toEqual(['pdb', 'pmc', 'pubmed']);
    // Within a rank, by prefix: go (Gene Ontology) and ncbigene (NCBI Gene) both hold 'gene'.
    const gene = await structured<{ namespaces: { prefix: string }[] }>('searchRegistry', { query: 'gene' });
    expect(gene.namespaces.map((n) => n.prefix)).toEqual(['go', 'ncbigene']);
    const limited = await structured<{ total: number; namespaces: unknown[] }>('searchRegistry', { query: 'e', limit: 2 });
    expect(limited.namespaces).toHaveLength(2);
    expect(limited.total).toBeGreaterThan(2);
    expect(await structured('searchRegistry', { query: 'zzzz-nothing' })).toEqual({ query: 'zzzz-nothing', total: 0, namespaces: [] });
  });

  it('describes a namespace, in any case, with its description from the registry and its providers', async () => {
    const expected = SAMPLE.find((ns) => ns.prefix === 'taxonomy')!;
    const taxonomy = await structured<{
      prefix: string;
      description: string;
      sampleId: string;
      sampleCompactIdentifierUrl: string;
      registryPage: string;
      providers: { providerCode: string; sampleUrl: string | null; recommendationIndex: number | null }[];
    }>('describeNamespace', { prefix: 'Taxonomy' });
    expect(taxonomy.prefix).toBe('taxonomy');
    expect(taxonomy.description).toBe(expected.description);
    expect(taxonomy.sampleId).toBe('9606');
    expect(taxonomy.sampleCompactIdentifierUrl).toBe(`${RESOLVER_URL}/taxonomy:9606`);
    expect(taxonomy.registryPage).toBe(`${REGISTRY_URL}/registry/taxonomy`);
    expect(taxonomy.providers).toHaveLength(expected.resources.length);
    const resolved = (await structured<{ urls: string[] }>('resolve', { curie: 'taxonomy:9606' })).urls;
    expect(taxonomy.providers.map((p) => p.sampleUrl)).toEqual(resolved);
    expect(taxonomy.providers.every((p) => typeof p.recommendationIndex === 'number')).toBe(true);
  });

  it('is an error for an unknown prefix', async () => {
    expect(await errorText('describeNamespace', { prefix: 'nosuchprefix' })).toMatch(/No namespace has the prefix 'nosuchprefix'/);
  });
});

describe('prompts', () => {
  it('fills each prompt with its arguments; convert-url-to-idorg-uri reads providerUrl, not curie', async () => {
    const text = async (name: string, args: Record<string, string>) => {
      const { messages } = await client.getPrompt({ name, arguments: args });
      expect(messages).toHaveLength(1);
      expect(messages[0]!.role).toBe('user');
      return (messages[0]!.content as { text: string }).text;
    };
    expect(await text('resolve-all-curie-urls', { curie: 'taxonomy:9606' })).toMatch(/"resolve".*taxonomy:9606/);
    expect(await text('resolve-best-curie-url', { curie: 'taxonomy:9606' })).toMatch(/"resolveBest".*taxonomy:9606/);
    const convert = await text('convert-url-to-idorg-uri', { providerUrl: TAXONOMY_URL });
    expect(convert).toContain(`providerUrl ${TAXONOMY_URL}`);
    expect(convert).not.toMatch(/undefined|accession/);
    expect(await text('convert-url-to-idorg-uri', { providerUrl: TAXONOMY_URL, accession: '9606' })).toContain('accession 9606');
  });

  it('answers a JSON-RPC error for a prompt without its argument or an unknown prompt', async () => {
    await expect(client.getPrompt({ name: 'convert-url-to-idorg-uri', arguments: { curie: 'taxonomy:9606' } })).rejects.toThrow(/Invalid arguments for prompt/);
    await expect(client.getPrompt({ name: 'no-such-prompt' })).rejects.toThrow(/Prompt no-such-prompt not found/);
  });
});

describe('bad arguments', () => {
  it('answers MCP errors for arguments of the wrong type, missing, too long or unknown tools, and goes on answering', async () => {
    expect(await errorText('resolve', { curie: 9606 })).toMatch(/Input validation error/);
    expect(await errorText('resolve', {})).toMatch(/Input validation error/);
    expect(await errorText('resolveBest', { curie: 'a'.repeat(5000) })).toMatch(/Input validation error/);
    expect(await errorText('searchRegistry', { query: 'go', limit: 0 })).toMatch(/Input validation error/);
    expect(await errorText('convert', { providerUrl: TAXONOMY_URL, accession: 9606 })).toMatch(/Input validation error/);
    expect(await errorText('noSuchTool', {})).toMatch(/Tool noSuchTool not found/);
    expect(await structured('resolve', { curie: 'taxonomy:9606' })).toMatchObject({ errorMessage: null });
  });
});

describe('the HTTP endpoint', () => {
  it('answers GET and DELETE with 405 and Allow: POST, never as the compact identifier "mcp"', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await server.send({ method, path: '/mcp', headers: { Accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });

  it('lets a page on another origin send MCP messages (CORS preflight)', async () => {
    const res = await server.send({
      method: 'OPTIONS',
      path: '/mcp',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,mcp-protocol-version' },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']?.split(',')).toContain('POST');
    const allowed = (res.headers['access-control-allow-headers'] ?? '').toLowerCase().split(',');
    expect(allowed).toEqual(expect.arrayContaining(['content-type', 'mcp-protocol-version']));
  });

  it('answers a request in JSON without a session', async () => {
    const res = await postMcp(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'resolveBest', arguments: { curie: 'taxonomy:9606' } } }), {
      'Mcp-Protocol-Version': '2025-06-18',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['mcp-session-id']).toBeUndefined();
    const body = JSON.parse(res.text) as { id: number; result: { structuredContent: { url: string } } };
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.url).toBe('https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606');
  });

  it('refuses a body over the limit, malformed JSON, an empty body and a client that takes neither JSON nor events', async () => {
    expect((await postMcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(70_000) } }))).status).toBe(413);
    expect((await postMcp('{"jsonrpc":')).status).toBe(400);
    expect((await postMcp('')).status).toBe(400);
    expect((await postMcp(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { Accept: 'application/json' })).status).toBe(406);
    expect((await postMcp(JSON.stringify({ hello: 'world' }))).status).toBe(400);
  });

  it('counts each message of a JSON-RPC batch against the resolution limit', async () => {
    const { koa } = await r.resolverApp({ env: { RATE_LIMITS: 'true', RATE_LIMIT_RESOLUTION: '5' } });
    const limited = await startRawServer(koa.callback());
    const pings = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' })));
    const send = (body: string) =>
      limited.send({ method: 'POST', path: '/mcp', headers: { 'Content-Type': 'application/json', Accept: MCP_ACCEPT }, body });
    try {
      const first = await send(pings(3));
      expect(first.status).toBe(200);
      expect(JSON.parse(first.text)).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, result: {} })));
      const second = await send(pings(3));
      expect(second.status).toBe(429);
      expect(second.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });

  it('is not served with RESOLVER_MCP=false', async () => {
    const { koa } = await r.resolverApp({ env: { RESOLVER_MCP: 'false' } });
    const off = await startRawServer(koa.callback());
    try {
      const res = await off.send({ method: 'POST', path: '/mcp', headers: { 'Content-Type': 'application/json', Accept: MCP_ACCEPT }, body: '{}' });
      expect(res.status).toBe(404);
    } finally {
      await off.close();
    }
  });
});
