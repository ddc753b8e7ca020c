/**
 * The MCP tool resolveBest against the complete identifiers.org dataset (REGISTRY_DATASET), driven by the
 * SDK's own client: for every namespace's sample identifier it answers exactly the Location the resolver's
 * browser path redirects to, and an error where the browser path does not redirect. describeNamespace
 * describes every namespace with the providers the sample resolves to.
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { startRawServer, type RawServer } from '../support/raw-http.js';
import { describeRequiring, registryDataset } from '../support/requirements.js';

const realDataset = registryDataset();
const dataset = realDataset.file as string;

interface DatasetNamespace {
  prefix: string;
  sampleId: string;
  resources: unknown[];
}

describeRequiring([realDataset], 'the MCP tools against the real dataset', () => {
  let resolver: ResolverUnderTest;
  let server: RawServer;
  let client: Client;
  let namespaces: DatasetNamespace[];

  beforeAll(async () => {
    namespaces = JSON.parse(readFileSync(dataset, 'utf8')) as DatasetNamespace[];
    resolver = await startResolver('resolver_mcp_real', { data: { file: dataset } });
    server = await startRawServer(resolver.app);
    client = new Client({ name: 'resolver-mcp-real-data-test', version: '1.0.0' });
    // The transport hands every fetch the one abort signal of the session, and Node's fetch adds a listener to
    // it per request: over a thousand calls that is a MaxListenersExceededWarning per call. Each request gets
    // a signal of its own here, following the session's.
    const fetchOwnSignal: typeof fetch = (url, init) => fetch(url, { ...init, signal: init?.signal ? AbortSignal.any([init.signal]) : undefined });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), { fetch: fetchOwnSignal }));
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await resolver?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;

  it(
    "resolveBest equals the browser redirect's Location for every namespace's sample id",
    async () => {
      const mismatches: string[] = [];
      let redirected = 0;
      for (const { prefix, sampleId } of namespaces) {
        const curie = `${prefix}:${sampleId}`;
        const res = await server.send({ method: 'GET', path: `/${encodeURI(curie).replace(/[?#]/g, encodeURIComponent)}`, headers: { Accept: 'text/html' } });
        const result = await call('resolveBest', { curie });
        if (res.status === 302) {
          redirected++;
          const url = (result.structuredContent as { url?: string } | undefined)?.url;
          if (result.isError || url !== res.headers.location) mismatches.push(`${curie}: redirect ${res.headers.location}, resolveBest ${JSON.stringify(result.content)}`);
        } else if (!result.isError) {
          mismatches.push(`${curie}: browser path ${res.status}, resolveBest ${JSON.stringify(result.structuredContent)}`);
        }
      }
      expect(mismatches).toEqual([]);
      console.log(`resolveBest equals the redirect for ${redirected} of ${namespaces.length} sample ids (the others do not redirect, and resolveBest is an error)`);
      expect(redirected).toBeGreaterThan(namespaces.length * 0.95);
    },
    300_000,
  );

  it(
    'describes every namespace, its prefix asked in upper case, with its description and as many providers as the dataset lists',
    async () => {
      const problems: string[] = [];
      for (const ns of namespaces) {
        const result = await call('describeNamespace', { prefix: ns.prefix.toUpperCase() });
        const described = result.structuredContent as { prefix: string; description: string | null; providers: { sampleUrl: string | null }[] } | undefined;
        if (result.isError || !described) problems.push(`${ns.prefix}: ${JSON.stringify(result.content)}`);
        else if (described.prefix !== ns.prefix || described.providers.length !== ns.resources.length || described.description === null) {
          problems.push(`${ns.prefix}: ${described.prefix}, ${described.providers.length} providers, description ${described.description === null ? 'missing' : 'present'}`);
        }
      }
      expect(problems).toEqual([]);
    },
    300_000,
  );
});
