/**
 * The resolver area over HTTP: resolution, percent-decoding, HEAD, bare namespaces, redirects and landing
 * pages for browsers, CORS and MIR ids, against the sample registry loaded into a real database.
 */
import { createHash } from 'node:crypto';
import request from 'supertest';
import { REGISTRY_URL, RESOLVER_URL, startResolver, type ResolverUnderTest } from '../support/areas.js';
import { waitFor } from '../support/wait.js';
import { sendPreflight } from '../support/cors.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,*/*;q=0.8';

const ENVELOPE_FIELDS = ['apiVersion', 'errorMessage', 'payload'];
const PAYLOAD_FIELDS = ['resolvedResources', 'parsedCompactIdentifier'];
const RESOURCE_FIELDS = [
  'id', 'mirId', 'providerCode', 'compactIdentifierResolvedUrl', 'description', 'institution', 'location', 'official',
  'resourceHomeUrl', 'recommendation', 'namespacePrefix', 'deprecatedNamespace', 'namespaceDeprecationDate',
  'deprecatedResource', 'resourceDeprecationDate', 'renderDeprecatedLanding', 'protectedUrls', 'renderProtectedLanding',
  'authHelpUrl', 'authHelpDescription',
];
const INSTITUTION_FIELDS = ['id', 'name', 'homeUrl', 'description', 'rorId', 'location'];
const PARSED_FIELDS = [
  'providerCode', 'namespace', 'localId', 'rawRequest', 'namespaceEmbeddedInLui', 'deprecatedNamespace',
  'renderDeprecatedLanding', 'namespaceDeprecationDate',
];

interface Resolved {
  id: number;
  compactIdentifierResolvedUrl: string;
  institution: { name: string };
  protectedUrls: boolean;
}

const TAXONOMY_9606_URLS = [
  'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606',
  'https://purl.uniprot.org/taxonomy/9606',
  'https://www.ebi.ac.uk/ena/data/view/Taxon:9606',
  'http://purl.bioontology.org/ontology/NCBITAXON/9606',
  'https://bio2rdf.org/taxonomy:9606',
  'https://www.ebi.ac.uk/ols4/ontologies/ncbitaxon/terms?short_form=NCBITaxon_9606',
];

let r: ResolverUnderTest;
beforeAll(async () => {
  r = await startResolver('resolver_http');
});
afterAll(() => r.close());

const get = (path: string) => request(r.app).get(path);
const resources = (body: { payload: { resolvedResources: Resolved[] | null } }) => body.payload.resolvedResources ?? [];

describe('JSON resolution', () => {
  it('answers a compact identifier with 200 JSON whose fields come in the reference order', async () => {
    const res = await get('/taxonomy:9606');

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.text) as Record<string, unknown> & { payload: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(ENVELOPE_FIELDS);
    expect(body.errorMessage).toBeNull();
    expect(Object.keys(body.payload)).toEqual(PAYLOAD_FIELDS);
    const list = body.payload.resolvedResources as Record<string, unknown>[];
    expect(list).toHaveLength(6);
    for (const resource of list) {
      expect(Object.keys(resource)).toEqual(RESOURCE_FIELDS);
      expect(Object.keys(resource.institution as object)).toEqual(INSTITUTION_FIELDS);
      expect(Object.keys(resource.location as object)).toEqual(['countryCode', 'countryName']);
      expect(Object.keys(resource.recommendation as object)).toEqual(['recommendationIndex', 'recommendationExplanation']);
    }
    expect(Object.keys(body.payload.parsedCompactIdentifier as object)).toEqual(PARSED_FIELDS);
    expect(body.payload.parsedCompactIdentifier).toEqual({
      providerCode: null,
      namespace: 'taxonomy',
      localId: '9606',
      rawRequest: 'taxonomy:9606',
      namespaceEmbeddedInLui: false,
      deprecatedNamespace: false,
      renderDeprecatedLanding: false,
      namespaceDeprecationDate: null,
    });
  });

  it('lists every provider in dataset order (ascending resource id) with its URL filled in', async () => {
    const res = await get('/taxonomy:9606');

    expect(resources(res.body).map((x) => x.id)).toEqual([29, 30, 31, 32, 34, 35]);
    expect(resources(res.body).map((x) => x.compactIdentifierResolvedUrl)).toEqual(TAXONOMY_9606_URLS);
  });

  it('answers an unknown prefix with 400 and the reference message, payload fields null', async () => {
    const res = await get('/foo:bar');

    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage: "Resolution request 'foo:bar' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'foo:bar'",
      payload: { resolvedResources: null, parsedCompactIdentifier: null },
    });
  });

  it('answers a LUI that does not match the pattern with 400 quoting the pattern', async () => {
    const res = await get('/taxonomy:abc');

    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toBe(
      "Resolution request 'taxonomy:abc' is NOT A NAMESPACE; For namespace 'taxonomy', provided local ID 'abc' DOES NOT MATCH local IDs definition pattern '^\\d+$'",
    );
  });

  it('answers an unknown provider code with 404, the reference message and both payload fields null', async () => {
    const res = await get('/NCBI/taxonomy:9606');

    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(ENVELOPE_FIELDS);
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage: "For Compact ID 'NCBI/taxonomy:9606', prefix 'taxonomy', NO RESOURCES FOUND with PROVIDER CODE 'NCBI'",
      payload: { resolvedResources: null, parsedCompactIdentifier: null },
    });
  });

  it('keeps only the resources of a known provider code', async () => {
    const res = await get('/ncbi/taxonomy:9606');

    expect(res.status).toBe(200);
    expect(resources(res.body).map((x) => x.id)).toEqual([29]);
    expect(res.body.payload.parsedCompactIdentifier.providerCode).toBe('ncbi');
  });
});

describe('percent-decoding of the path', () => {
  it('decodes an encoded colon once: GO%3A0006915 resolves as GO:0006915', async () => {
    const res = await get('/GO%3A0006915');

    expect(res.status).toBe(200);
    expect(res.body.payload.parsedCompactIdentifier).toMatchObject({ namespace: 'go', localId: 'GO:0006915', rawRequest: 'GO:0006915' });
    expect(resources(res.body)[0]?.compactIdentifierResolvedUrl).toBe('https://www.ebi.ac.uk/QuickGO/GTerm?id=GO:0006915');
  });

  it('turns %2F into a / inside a DOI LUI', async () => {
    const res = await get('/doi:10.1038%2Fnbt1156');

    expect(res.status).toBe(200);
    expect(res.body.payload.parsedCompactIdentifier).toMatchObject({ localId: '10.1038/nbt1156', rawRequest: 'doi:10.1038/nbt1156' });
    expect(resources(res.body).map((x) => x.compactIdentifierResolvedUrl)).toEqual([
      'https://doi.org/10.1038/nbt1156',
      'https://scholia.toolforge.org/doi/10.1038/nbt1156',
    ]);
  });

  it('puts a ? into the LUI only when sent as %3F; a query string is not part of the LUI', async () => {
    const encoded = await get('/doi:10.1000/abc%3Fx=1');
    expect(encoded.status).toBe(200);
    expect(encoded.body.payload.parsedCompactIdentifier).toMatchObject({ localId: '10.1000/abc?x=1', rawRequest: 'doi:10.1000/abc?x=1' });
    expect(resources(encoded.body)[0]?.compactIdentifierResolvedUrl).toBe('https://doi.org/10.1000/abc?x=1');

    const query = await get('/doi:10.1000/abc?x=1');
    expect(query.status).toBe(200);
    expect(query.body.payload.parsedCompactIdentifier).toMatchObject({ localId: '10.1000/abc', rawRequest: 'doi:10.1000/abc' });
  });

  it('accepts an embedded prefix typed in another case: go:0006915 gives the LUI GO:0006915', async () => {
    const res = await get('/go:0006915');

    expect(res.status).toBe(200);
    expect(res.body.payload.parsedCompactIdentifier).toMatchObject({ namespace: 'go', localId: 'GO:0006915', rawRequest: 'go:0006915' });
    expect(resources(res.body).map((x) => x.compactIdentifierResolvedUrl)).toContain('http://amigo.geneontology.org/amigo/term/GO:0006915');
  });
});

describe('HEAD', () => {
  it.each([['/taxonomy:9606', 200], ['/foo:bar', 400], ['/NCBI/taxonomy:9606', 404]])(
    'answers HEAD %s like GET (status %d, same headers) without a body',
    async (path, status) => {
      const [head, full] = [await request(r.app).head(path), await get(path)];
      const comparable = (headers: Record<string, string>) => {
        const { date: _date, 'x-request-id': _id, ...rest } = headers;
        return rest;
      };

      expect(head.status).toBe(status);
      expect(full.status).toBe(status);
      expect(comparable(head.headers)).toEqual(comparable(full.headers));
      expect(head.text ?? '').toBe('');
    },
  );
});

describe('bare namespace', () => {
  it.each(['/taxonomy', '/Taxonomy'])('sends %s to the registry page of the registry prefix', async (path) => {
    const res = await get(path);

    expect(res.status).toBe(200);
    expect(resources(res.body)).toHaveLength(1);
    expect(resources(res.body)[0]).toMatchObject({ id: 0, compactIdentifierResolvedUrl: `${REGISTRY_URL}/registry/taxonomy` });
    expect(res.body.payload.parsedCompactIdentifier.namespace).toBe(path.slice(1));
  });
});

describe('redirects for people', () => {
  const best = 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606';

  it('redirects a browser (Accept preferring text/html) with 302 to the best provider', async () => {
    const res = await get('/taxonomy:9606').set('Accept', BROWSER_ACCEPT);

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(best);
  });

  it('redirects with ?redirect=true whatever the Accept header', async () => {
    const res = await get('/taxonomy:9606?redirect=true');

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(best);
  });

  it.each(['application/json', '*/*'])('answers Accept: %s with the same JSON as a request without Accept', async (accept) => {
    const plain = await get('/taxonomy:9606');
    const res = await get('/taxonomy:9606').set('Accept', accept);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(plain.body);
    expect(res.text).toBe(plain.text);
  });

  it('sends a browser asking for a deprecated namespace with a landing page to that page', async () => {
    const res = await get('/3dmet:B00162').set('Accept', BROWSER_ACCEPT);

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${RESOLVER_URL}/deactivatedLanding/3dmet:B00162`);
  });

  it('shows a deprecation landing page that links every provider and the registry page', async () => {
    const res = await get('/deactivatedLanding/3dmet:B00162').set('Accept', BROWSER_ACCEPT);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('href="http://www.3dmet.dna.affrc.go.jp/cgi/show_data.php?acc=B00162"');
    expect(res.text).toContain(`href="${REGISTRY_URL}/registry/3dmet"`);
    expect(res.text).toMatch(/deprecated/i);
  });

  it('answers a failed resolution asked for by a browser with a 404 HTML page that keeps the API\'s message as a detail', async () => {
    const res = await get('/foo:bar').set('Accept', BROWSER_ACCEPT);

    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain(
      "<code>Resolution request 'foo:bar' is NOT A NAMESPACE; INVALID Compact Identifier resolution request for 'foo:bar'</code>",
    );
  });

  it('escapes a hostile LUI in the failure page', async () => {
    const res = await get('/taxonomy:%3Cscript%3Ealert(1)%3C%2Fscript%3E').set('Accept', BROWSER_ACCEPT);

    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('<code>&lt;script>alert(1)&lt;/script></code>');
  });

  it('sends its landing pages with a Content-Security-Policy that allows their one style and nothing else, never framed', async () => {
    const res = await get('/deactivatedLanding/3dmet:B00162').set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
    // The page's style element is the one the policy names by its hash.
    const style = /<style>([^<]*)<\/style>/.exec(res.text)![1]!;
    expect(policy).toContain(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
  });

  it('sends its failure pages with the registry pages\' policy (their own origin only, never framed)', async () => {
    const pages = [
      await get('/deactivatedLanding/3dmet:nosuchthing!').set('Accept', BROWSER_ACCEPT),
      await get('/foo:bar').set('Accept', BROWSER_ACCEPT),
    ];
    for (const res of pages) {
      expect(res.status).toBe(404);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['content-security-policy']).toBe("default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'");
      expect(res.text).not.toMatch(/<style|<script/);
    }
  });
});

describe('CORS', () => {
  it('lets any origin read a resolution', async () => {
    const res = await get('/taxonomy:9606').set('Origin', 'https://example.org');

    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('lets any origin read a reverse lookup', async () => {
    const res = await request(r.app)
      .post('/reverse/byPrefix')
      .set('Origin', 'https://example.org')
      .send({ apiVersion: '1.0', payload: { url: 'https://www.ncbi.nlm.nih.gov/gene/100010' } });

    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it.each(['/reverse/byPrefix', '/reverse/bySimilarity', '/reverse/batch', '/resolve/batch'])(
    'answers the preflight of POST %s with 204 allowing POST and Content-Type',
    async (path) => {
      const res = await sendPreflight(r.app, path, 'https://example.org', 'POST', 'Content-Type');

      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toContain('POST');
      expect(res.headers['access-control-allow-headers']?.toLowerCase()).toContain('content-type');
    },
  );
});

describe('MIR ids', () => {
  it.each([
    ['MIR:00000006', 'taxonomy'],
    ['6', 'taxonomy'],
    ['22', 'go'],
    ['MIR:00100009', 'chebi'],
    ['MIR:00100099', 'ncbigene'],
  ])('redirects /resolveMirId/%s to the registry page of %s', async (mirId, prefix) => {
    const res = await get(`/resolveMirId/${mirId}`);

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${REGISTRY_URL}/registry/${prefix}`);
  });

  it('answers an unknown MIR id with 404 in the envelope', async () => {
    const res = await get('/resolveMirId/MIR:99999999');

    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(ENVELOPE_FIELDS);
    expect(res.body.apiVersion).toBe('1.0');
    expect(res.body.errorMessage).toContain('MIR:99999999');
    expect(res.body.payload).toBeNull();
  });
});

// Last: it changes the registry of this file's database.
describe('protected resources', () => {
  const orcid = '/orcid:0000-0002-5355-2576';

  beforeAll(async () => {
    await r.db.raw(
      `UPDATE resources SET protected_urls = true, render_protected_landing = true,
         auth_help_url = 'https://help.example.org/access', auth_help_description = 'Sign in with your <institution> account'
       WHERE mir_id = 'MIR:00100489'`,
    );
    await waitFor(
      async () => ((await get(orcid)).body.payload?.resolvedResources?.[0] as Resolved | undefined)?.protectedUrls || undefined,
      { timeoutMs: 5000, what: 'the protected flag reaching resolution' },
    );
  });

  it('sends a browser to the protected landing page', async () => {
    const res = await get(orcid).set('Accept', BROWSER_ACCEPT);

    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${RESOLVER_URL}/protectedLanding/orcid:0000-0002-5355-2576`);
  });

  it('shows the auth help on the protected landing page, with the provider link', async () => {
    const res = await get(`/protectedLanding${orcid}`);

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Sign in with your &lt;institution&gt; account');
    expect(res.text).toContain('href="https://help.example.org/access"');
    expect(res.text).toContain('href="https://orcid.org/0000-0002-5355-2576"');
  });

  it('still answers API clients with JSON that carries the auth help', async () => {
    const res = await get(orcid);

    expect(res.status).toBe(200);
    expect(res.body.payload.resolvedResources[0]).toMatchObject({
      protectedUrls: true,
      renderProtectedLanding: true,
      authHelpUrl: 'https://help.example.org/access',
      authHelpDescription: 'Sign in with your <institution> account',
    });
  });
});
