/**
 * The resolver's pages for people (issue 23 item 4): a failed resolution asked for by a browser is a page of
 * the site saying what went wrong in plain words, with the namespace's page and sample, what the request may
 * have meant and the registry's search; its status is the satellite's 404 as before, and API clients keep
 * the reference's JSON, byte for byte. The resolver's `/` is a short page for a browser, the 404 envelope for
 * everyone else.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { REGISTRY_URL, RESOLVER_URL, startResolver, type ResolverUnderTest } from '../support/areas.js';
import { ROOT } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const PAGE_POLICY = "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

/** A namespace the registry has but no provider serves (the reference's "No providers found"). */
const WITHOUT_PROVIDERS = {
  created: '2019-06-11T14:15:29.882+00:00',
  deprecated: false,
  deprecationDate: null,
  deprecationOfflineDate: null,
  deprecationStatement: null,
  description: 'A namespace without providers.',
  id: 990,
  infoOnPostmortemAccess: null,
  mirId: 'MIR:00000990',
  modified: '2019-06-11T14:15:29.882+00:00',
  name: 'No Providers Yet',
  namespaceEmbeddedInLui: false,
  pattern: '^\\d+$',
  prefix: 'noproviders',
  renderDeprecatedLanding: false,
  sampleId: '1',
  resources: [],
};

let r: ResolverUnderTest;
beforeAll(async () => {
  r = await startResolver('resolver_failure_pages', { data: { extra: [WITHOUT_PROVIDERS] } });
});
afterAll(() => r.close());

const page = (path: string) => request(r.app).get(path).set('Accept', BROWSER_ACCEPT);
const api = (path: string) => request(r.app).get(path);
/** The page's text without its tags, spaces collapsed: what a reader sees. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').replace(/ ([.,:])/g, '$1');
const failedJson = (errorMessage: string) => JSON.stringify({ apiVersion: '1.0', errorMessage, payload: { resolvedResources: null, parsedCompactIdentifier: null } });

describe('a LUI its namespace refuses', () => {
  it('says in plain words what the namespace\'s identifiers are, with its sample, page and pattern (404, as before)', async () => {
    const res = await page('/taxonomy:human');

    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const text = textOf(res.text);
    expect(text).toContain('Could not resolve taxonomy:human');
    expect(text).toContain('human is not a valid identifier in taxonomy: taxonomy identifiers are numbers, such as taxonomy:9606.');
    expect(res.text).toContain(`<a href="${RESOLVER_URL}/taxonomy:9606"><code>taxonomy:9606</code></a>`);
    expect(res.text).toContain(`<a href="${REGISTRY_URL}/registry/taxonomy">Taxonomy</a>`);
    // The pattern is there, as a detail a reader opens.
    expect(res.text).toMatch(/<details><summary>The pattern of its identifiers<\/summary><p>[^<]*<code>\^\\d\+\$<\/code><\/p><\/details>/);
    // No "did you mean": nothing near "human" is a taxonomy identifier.
    expect(res.text).not.toContain('Did you mean');
  });

  it('keeps the reference\'s JSON for API clients, byte for byte', async () => {
    const res = await api('/taxonomy:human');
    expect(res.status).toBe(400);
    expect(res.text).toBe(failedJson("Resolution request 'taxonomy:human' is NOT A NAMESPACE; For namespace 'taxonomy', provided local ID 'human' DOES NOT MATCH local IDs definition pattern '^\\d+$'"));
  });

  it('offers the identifier mended where the canonical rules or an obvious slip give one that resolves', async () => {
    for (const [asked, mended] of [
      ['/taxonomy:9606%2F', 'taxonomy:9606'],
      ['/CHEBI/36927', 'CHEBI:36927'],
      ['/go/0006915', 'GO:0006915'],
      ['/go:6915.', 'GO:0006915'],
    ]) {
      const res = await page(asked!);
      expect([asked, res.status]).toEqual([asked, 404]);
      expect(res.text).toContain(`<h2 id="suggestions-heading">Did you mean</h2><ul class="suggested"><li><a href="${RESOLVER_URL}/${mended}"><code>${mended}</code></a></li>`);
      // What it offers resolves.
      expect((await api(`/${mended}`)).status).toBe(200);
    }
  });

  it('writes an embedded namespace\'s sample and shape with the prefix its pattern spells', async () => {
    const text = textOf((await page('/GO:apoptosis')).text);
    expect(text).toContain('GO:apoptosis');
    expect(text).toContain('go identifiers are “GO:” followed by 7 digits, such as GO:0006915.');
  });
});

describe('an unknown prefix', () => {
  it('names it, suggests the close prefixes with the request written on them, and fills the search with it', async () => {
    const res = await page('/taxonmy:9606');

    expect(res.status).toBe(404);
    const text = textOf(res.text);
    expect(text).toContain('No namespace of the registry has the prefix taxonmy.');
    expect(text).toContain('such as taxonomy:9606.');
    expect(res.text).toContain(`<li><a href="${RESOLVER_URL}/taxonomy:9606"><code>taxonomy:9606</code></a> (<a href="${REGISTRY_URL}/registry/taxonomy">Taxonomy</a>)</li>`);
    expect(res.text).toMatch(new RegExp(`<form class="box" action="${REGISTRY_URL}/registry" method="get" role="search">.*<input type="search" id="failure-search" name="q" value="taxonmy"`));
  });

  it('says anew what a registry change makes of the same request (a page is kept only while its snapshot serves)', async () => {
    const before = textOf((await page('/taxonomyx:9606')).text);
    expect(before).toContain('No namespace of the registry has the prefix taxonomyx.');
    await r.db('namespaces').insert({
      prefix: 'taxonomyx', mirId: 'MIR:00000991', name: 'Taxonomy X', pattern: '^\\d+$', description: 'A namespace added while the resolver runs.', sampleId: '1',
    });
    await waitFor(async () => !textOf((await page('/taxonomyx:9606')).text).includes('No namespace of the registry has the prefix taxonomyx.'), {
      timeoutMs: 10_000,
      what: 'the failure page following the registry change',
    });
    expect(textOf((await page('/taxonomyx:9606')).text)).toContain('Taxonomy X');
  });

  it('keeps the reference\'s JSON for API clients', async () => {
    const res = await api('/taxonmy:9606');
    expect(res.status).toBe(400);
    expect(res.text).toBe(failedJson("Resolution request 'taxonmy:9606' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'taxonmy:9606'"));
  });
});

describe('a provider code no provider has', () => {
  it('lists the codes the namespace\'s providers have and offers the code as written in the registry', async () => {
    const res = await page('/NCBI/taxonomy:9606');

    expect(res.status).toBe(404);
    const text = textOf(res.text);
    expect(text).toContain('No provider of taxonomy identifiers has the code NCBI.');
    expect(text).toContain('The codes of its providers: ncbi, ebi, bptl, ols.');
    expect(res.text).toContain(`<a href="${RESOLVER_URL}/ncbi/taxonomy:9606"><code>ncbi/taxonomy:9606</code></a>`);
  });

  it('keeps the reference\'s JSON for API clients', async () => {
    const res = await api('/NCBI/taxonomy:9606');
    expect(res.status).toBe(404);
    expect(res.text).toBe(failedJson("For Compact ID 'NCBI/taxonomy:9606', prefix 'taxonomy', NO RESOURCES FOUND with PROVIDER CODE 'NCBI'"));
  });
});

describe('a namespace without providers', () => {
  it('says so and links the namespace\'s page, not its sample (which goes nowhere either)', async () => {
    const res = await page('/noproviders:1');

    expect(res.status).toBe(404);
    expect(textOf(res.text)).toContain('The namespace noproviders is in the registry, but no provider of its identifiers is registered yet');
    expect(res.text).toContain(`<a href="${REGISTRY_URL}/registry/noproviders">No Providers Yet</a>`);
    expect(res.text).not.toContain(`${RESOLVER_URL}/noproviders:1"`);
  });

  it('keeps the reference\'s JSON for API clients', async () => {
    const res = await api('/noproviders:1');
    expect(res.status).toBe(404);
    expect(res.text).toBe(failedJson("No providers found for Compact ID 'noproviders:1'"));
  });
});

describe('every failure page', () => {
  const failures = ['/taxonomy:human', '/taxonmy:9606', '/NCBI/taxonomy:9606', '/noproviders:1', '/deactivatedLanding/3dmet:nosuchthing!'];

  it('is a page of the site: its stylesheet, the navigation to the registry, the search box, the registry pages\' policy', async () => {
    for (const path of failures) {
      const res = await page(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.headers['content-security-policy']).toBe(PAGE_POLICY);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.text).toMatch(/<link rel="stylesheet" href="\/page-assets\/registry\.css\?v=[\w-]{16}"\/>/);
      expect(res.text).toContain(`<a href="${REGISTRY_URL}/registry">Browse the registry</a>`);
      expect(res.text).toContain(`action="${REGISTRY_URL}/registry"`);
      expect(res.text).toMatch(/<main id="main"/);
    }
  });

  it('is what ?redirect=true gets too, and varies by Accept with the short cache of failures', async () => {
    const res = await api('/taxonomy:human?redirect=true');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toBe('Accept');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(textOf(res.text)).toContain('taxonomy identifiers are numbers');
  });

  it('serves the registry\'s stylesheet it links, cached for a year at its versioned address', async () => {
    const link = /<link rel="stylesheet" href="([^"]+)"/.exec((await page('/taxonomy:human')).text)![1]!;
    const res = await request(r.app).get(link);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.text).toBe(readFileSync(path.join(ROOT, 'public/registry.css'), 'utf8'));
  });
});

describe('the resolver\'s own address', () => {
  it('shows a browser a short page pointing to the registry, the API documentation and the OpenAPI document', async () => {
    const res = await page('/');

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.vary).toBe('Accept');
    expect(res.headers['content-security-policy']).toBe(PAGE_POLICY);
    expect(res.text).toContain(`<a href="${REGISTRY_URL}/">The registry</a>`);
    expect(res.text).toContain('<a href="/docs">The resolver’s API documentation</a>');
    expect(res.text).toContain('<a href="/openapi.json">The API’s OpenAPI document</a>');
    expect(res.text).toContain(`<a href="${RESOLVER_URL}/taxonomy:9606"><code>${RESOLVER_URL}/taxonomy:9606</code></a>`);
  });

  it('answers every other client as before: 404 in the envelope', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = accept ? await api('/').set('Accept', accept) : await api('/');
      expect([accept, res.status]).toEqual([accept, 404]);
      expect(res.text).toBe('{"apiVersion":"1.0","errorMessage":"No such endpoint: GET /","payload":null}');
      expect(res.headers.vary).toBe('Accept');
    }
  });
});
