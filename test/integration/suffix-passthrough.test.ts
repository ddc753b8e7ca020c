/**
 * Suffix passthrough (issue 25 item 5) through both areas over one database: off by default (a path-like
 * identifier fails exactly as before), turned on by a curator's PATCH and reaching the resolver like any
 * namespace edit, then the JSON answer, the browser's redirect, the batch and the MCP tools; hostile
 * suffixes; the HAL item and the dataset; and the desk's namespace form turning it off again.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { MAX_SUFFIX_LENGTH } from '../../src/core/lui-suffix.js';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { HTML_ACCEPT, signInAtDesk } from '../support/desk-session.js';
import { waitFor } from '../support/wait.js';

let both: BothAreas;
let resolver: ReturnType<BothAreas['resolver']['koa']['callback']>;
let registry: ReturnType<BothAreas['registry']['koa']['callback']>;
let pdbId: number;
let mcp: Client;

const VERSIONED = 'pdb:2gc4/assembly/1';
const MISMATCH =
  "Resolution request 'pdb:2gc4/assembly/1' is NOT A NAMESPACE; For namespace 'pdb', provided local ID '2gc4/assembly/1' DOES NOT MATCH local IDs definition pattern '^[0-9][A-Za-z0-9]{3}$'";

beforeAll(async () => {
  both = await startBothAreas('suffix_passthrough');
  resolver = both.resolver.koa.callback();
  registry = both.registry.koa.callback();
  pdbId = Number((await both.db('namespaces').first('id').where({ prefix: 'pdb' }))!.id);
  mcp = new Client({ name: 'suffix-passthrough-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${both.resolver.port}/mcp`)));
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await both?.close();
});

const auth = () => `Bearer ${both.curatorToken}`;
const patchPdb = (body: unknown) =>
  request(registry).patch(`/restApi/namespaces/${pdbId}`).set('Authorization', auth()).set('Content-Type', 'application/json').send(JSON.stringify(body));
const browser = (path: string) => request(resolver).get(path).set('Accept', 'text/html');
const batch = (compactIdentifiers: string[]) =>
  request(resolver).post('/resolve/batch').send({ apiVersion: '1.0', payload: { compactIdentifiers } });
const callTool = async (name: string, args: Record<string, unknown>) => (await mcp.callTool({ name, arguments: args })) as CallToolResult;

/** What each client got before the flag was turned on, to compare with what it gets after. */
const before: Record<string, { status: number; text: string; location?: string }> = {};

describe('with suffix passthrough off (the default)', () => {
  it('answers a versioned identifier 400 with the same message as before, on every path', async () => {
    const json = await request(resolver).get(`/${VERSIONED}`);
    expect(json.status).toBe(400);
    expect(json.body).toEqual({ apiVersion: '1.0', errorMessage: MISMATCH, payload: { resolvedResources: null, parsedCompactIdentifier: null } });
    expect((await browser(`/${VERSIONED}`)).status).toBe(404);
    const items = (await batch([VERSIONED])).body.payload.results;
    expect(items[0]).toMatchObject({ status: 400, errorMessage: MISMATCH, resolvedResources: null });
    const mcpAnswer = await callTool('resolve', { curie: VERSIONED });
    expect(mcpAnswer.structuredContent).toEqual({ urls: [], errorMessage: MISMATCH });
    for (const path of ['/pdb:2gc4', '/rcsb/pdb:2gc4']) {
      const res = await request(resolver).get(path);
      before[path] = { status: res.status, text: res.text };
    }
    before.redirect = { status: 302, text: '', location: (await browser('/pdb:2gc4')).headers.location };
  });

  it("shows the flag false in the HAL item, after the reference's fields and before the synonyms, and keeps it out of the reference dataset", async () => {
    const item = await request(registry).get(`/restApi/namespaces/${pdbId}`);
    expect(item.body.suffixPassthrough).toBe(false);
    expect(Object.keys(item.body).slice(-3)).toEqual(['suffixPassthrough', 'synonyms', '_links']);
    const dataset = await request(registry).get('/resolutionApi/getResolverDataset');
    const pdb = dataset.body.payload.namespaces.find((n: { prefix: string }) => n.prefix === 'pdb');
    expect(pdb).toBeDefined();
    expect(pdb).not.toHaveProperty('suffixPassthrough');
    expect((await request(registry).get('/registry/pdb').set('Accept', HTML_ACCEPT)).text).not.toContain('passed through to the providers');
  });
});

describe('a curator turning it on', () => {
  it('refuses a flag that is not a boolean, saying so', async () => {
    const res = await patchPdb({ suffixPassthrough: 'yes' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/suffixPassthrough/);
  });

  it('is logged, shown in the HAL item, and reaches the resolver within seconds', async () => {
    const res = await patchPdb({ suffixPassthrough: true });
    expect(res.status).toBe(204);
    const logged = await both.db('curationEvents').where({ entity: 'namespace', entityId: pdbId }).orderBy('id', 'desc').first();
    expect(logged).toMatchObject({ action: 'namespace.update', changes: { suffixPassthrough: { from: false, to: true } } });
    expect((await request(registry).get(`/restApi/namespaces/${pdbId}`)).body.suffixPassthrough).toBe(true);
    const page = await request(registry).get('/registry/pdb').set('Accept', HTML_ACCEPT);
    expect(page.text).toContain('is passed through to the providers');
    await waitFor(async () => (await request(resolver).get(`/${VERSIONED}`)).status === 200, { timeoutMs: 10_000, what: 'the flag reaching the resolver' });
    // The change feed tells its readers that the namespace changed, as for any namespace edit.
    await waitFor(
      async () => {
        const feed = await request(registry).get('/changes?limit=1000');
        return (feed.body.payload?.changes ?? []).some((c: { prefix: string; operation: string }) => c.prefix === 'pdb' && c.operation === 'updated');
      },
      { timeoutMs: 10_000, what: 'the change feed listing the edit' },
    );
  });
});

describe('with suffix passthrough on', () => {
  it('answers the JSON with the suffix on every provider URL and a trailing luiSuffix', async () => {
    const res = await request(resolver).get(`/${VERSIONED}`);
    expect(res.status).toBe(200);
    const payload = res.body.payload;
    expect(Object.keys(payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier', 'luiSuffix']);
    expect(payload.luiSuffix).toBe('/assembly/1');
    expect(payload.parsedCompactIdentifier).toMatchObject({ namespace: 'pdb', localId: '2gc4', rawRequest: VERSIONED });
    const plain = await request(resolver).get('/pdb:2gc4');
    const plainUrls = plain.body.payload.resolvedResources.map((r: { compactIdentifierResolvedUrl: string }) => r.compactIdentifierResolvedUrl);
    const urls = payload.resolvedResources.map((r: { compactIdentifierResolvedUrl: string }) => r.compactIdentifierResolvedUrl);
    expect(urls).toEqual(plainUrls.map((url: string) => `${url}/assembly/1`));
    expect(urls).toContain('https://www.rcsb.org/structure/2gc4/assembly/1');
  });

  it('answers every identifier its pattern matches exactly as before', async () => {
    for (const path of ['/pdb:2gc4', '/rcsb/pdb:2gc4']) {
      const res = await request(resolver).get(path);
      expect({ status: res.status, text: res.text }).toEqual(before[path]);
    }
    expect((await browser('/pdb:2gc4')).headers.location).toBe(before.redirect!.location);
  });

  it('redirects a browser to the best provider with the suffix', async () => {
    const res = await browser(`/${VERSIONED}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${before.redirect!.location}/assembly/1`);
  });

  it('resolves batch items as the single call does', async () => {
    const res = await batch([VERSIONED, 'pdb:2gc4', 'pdb:2gc4/../x']);
    expect(res.status).toBe(200);
    const [versioned, plain, dots] = res.body.payload.results;
    expect(versioned.status).toBe(200);
    expect(versioned.luiSuffix).toBe('/assembly/1');
    expect(versioned.resolvedResources).toEqual((await request(resolver).get(`/${VERSIONED}`)).body.payload.resolvedResources);
    expect(plain).not.toHaveProperty('luiSuffix');
    expect(dots.status).toBe(400);
  });

  it('gives the MCP tools the same URLs', async () => {
    const resolved = await callTool('resolve', { curie: VERSIONED });
    expect((resolved.structuredContent as { urls: string[] }).urls).toContain('https://www.rcsb.org/structure/2gc4/assembly/1');
    const best = await callTool('resolveBest', { curie: VERSIONED });
    expect(best.structuredContent).toEqual({ url: `${before.redirect!.location}/assembly/1` });
    const described = await callTool('describeNamespace', { prefix: 'pdb' });
    expect(described.structuredContent).toMatchObject({ prefix: 'pdb', suffixPassthrough: true });
  });

  it('answers hostile suffixes safely', async () => {
    // CR LF cannot reach the Location header as such; an encoded slash is a slash once decoded.
    const crlf = await browser('/pdb:2gc4/a%0D%0ASet-Cookie:%20x=1');
    expect(crlf.status).toBe(302);
    expect(crlf.headers.location).toBe(`${before.redirect!.location}/a%0D%0ASet-Cookie:%20x=1`);
    expect(crlf.headers['set-cookie']).toBeUndefined();
    const slash = await request(resolver).get('/pdb:2gc4/a%2Fb');
    expect(slash.body.payload.luiSuffix).toBe('/a/b');
    // Dot segments would climb out of the record's path at the provider: refused, saying why.
    const dots = await request(resolver).get('/pdb:2gc4/%2E%2E/admin');
    expect(dots.status).toBe(400);
    expect(dots.body.errorMessage).toMatch(/the suffix\) cannot be passed through: it holds a '\.' or '\.\.' path segment$/);
    expect((await browser('/pdb:2gc4/../admin')).status).not.toBe(302);
    const long = await request(resolver).get(`/pdb:2gc4/${'a'.repeat(MAX_SUFFIX_LENGTH)}`);
    expect(long.status).toBe(400);
    expect(long.body.errorMessage).toMatch(new RegExp(`it is longer than ${MAX_SUFFIX_LENGTH} characters$`));
  });
});

describe("the desk's namespace form", () => {
  it('shows the flag checked, and turns it off when posted unchecked', async () => {
    const cookie = await signInAtDesk(registry, both.curatorToken);
    const page = await request(registry).get('/curation/namespaces/pdb').set('Accept', HTML_ACCEPT).set('Cookie', cookie);
    expect(page.status).toBe(200);
    const form = /<form method="post" action="[^"]*\/edit"[\s\S]*?<\/form>/.exec(page.text)![0];
    expect(form).toMatch(/<input type="checkbox" [^>]*name="suffixPassthrough"[^>]*checked/);
    const fields: Record<string, string> = {};
    for (const match of form.matchAll(/<input type="(?:text|url|hidden)" [^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(match[0])?.[1];
      const value = /value="([^"]*)"/.exec(match[0])?.[1];
      if (name && value !== undefined) fields[name] = value.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
    }
    for (const match of form.matchAll(/<textarea [^>]*name="([A-Za-z]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[match[1]!] = match[2]!;
    const posted = await request(registry)
      .post(`/curation/namespaces/${pdbId}/edit`)
      .set('Accept', HTML_ACCEPT)
      .set('Cookie', cookie)
      .type('form')
      .send(fields);
    expect(posted.status).toBe(303);
    expect((await both.db('namespaces').where({ id: pdbId }).first('suffixPassthrough'))!.suffixPassthrough).toBe(false);
    await waitFor(async () => (await request(resolver).get(`/${VERSIONED}`)).status === 400, { timeoutMs: 10_000, what: 'the flag turned off at the resolver' });
    expect((await request(resolver).get(`/${VERSIONED}`)).body.errorMessage).toBe(MISMATCH);
  });
});
