/**
 * The input guard (src/http/input-guard.ts) at work on the requests that used to answer 500: a NUL reaching
 * Postgres, a lone surrogate, a body nested 5,000 deep with an Idempotency-Key, bytes that are not UTF-8,
 * and a browser redirect whose URL holds characters beyond ASCII. Each now answers a 400 naming the field,
 * or a redirect with an ASCII Location; markup in a failed request stays text on the resolver's failure page.
 * Requests go over a real socket (raw-http.ts) so that bytes can be sent exactly as a hostile client would.
 */
import { readFileSync } from 'node:fs';
import { errorEnvelope } from '../../src/http/envelope.js';
import { prefixRegistration, resourceRegistration } from '../factories/registration.factory.js';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import type { RawResponse } from '../support/raw-http.js';
import { SAMPLE_REGISTRY } from '../support/test-database.js';

const NUL = 'must not contain the NUL character (U+0000)';
const JSON_TYPE = { 'Content-Type': 'application/json' };

let areas: BothAreas;

beforeAll(async () => {
  areas = await startBothAreas('hostile_input');
});
afterAll(() => areas.close());

const get = (path: string, headers: Record<string, string> = {}) => areas.registry.send({ method: 'GET', path, headers });
const post = (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return areas.registry.send({ method: 'POST', path, headers: { ...JSON_TYPE, ...headers }, body: text });
};
const answer = (res: RawResponse) => ({ status: res.status, body: JSON.parse(res.text) as unknown });
const refused = (message: string) => ({ status: 400, body: errorEnvelope(message) });

describe('path parameters', () => {
  it.each(['/registry/%00', '/statistics/namespace/%00', '/schemaOrgApi/getMetadataForNamespacePrefix/%00', '/registry/go%00'])(
    'answers 400 naming the parameter for %s',
    async (path) => {
      expect(answer(await get(path))).toEqual(refused(`Path parameter 'prefix' ${NUL}`));
    },
  );

  it('names the parameter of every route, the curators\' too', async () => {
    expect(answer(await get('/restApi/namespaces/%00'))).toEqual(refused(`Path parameter 'id' ${NUL}`));
    const res = await post('/prefixRegistrationApi/commentPrefixRegistrationRequest/1%00', { apiVersion: '1.0', payload: {} });
    expect(answer(res)).toEqual(refused(`Path parameter 'sessionId' ${NUL}`));
  });

  it('answers 400 for a path that is not UTF-8 once percent-decoded', async () => {
    const notUtf8 = refused("Path parameter 'prefix' is not valid UTF-8 once percent-decoded");
    expect(answer(await get('/registry/%C3%28'))).toEqual(notUtf8);
    expect(answer(await get('/registry/%ED%A0%80'))).toEqual(notUtf8);
    expect(answer(await get('/registry/caf%E9'))).toEqual(notUtf8);
    expect(answer(await get('/restApi/%FF'))).toEqual(refused('The request path is not valid UTF-8 once percent-decoded'));
  });

  it('leaves query values to the routes, which answer a NUL there as no match, as before', async () => {
    const res = await get('/restApi/namespaces/search/findByPrefix?prefix=%00');
    expect(res.status).toBe(404);
    expect((await get('/statistics/namespace/go?period=day&from=%00')).status).toBe(400);
  });

  it('still answers well-formed UTF-8 and stray percent signs as before', async () => {
    expect(answer(await get('/registry/%E4%B8%AD'))).toEqual({ status: 404, body: errorEnvelope("No namespace with prefix '中'") });
    expect(answer(await get('/registry/100%'))).toEqual({ status: 404, body: errorEnvelope("No namespace with prefix '100%'") });
    expect((await get('/registry/GO')).status).toBe(302);
  });
});

describe('JSON bodies', () => {
  it('answers 400 naming payload.rorId for a NUL in a ROR id', async () => {
    const res = await post('/rorIdApi/getInstitutionForRorId', { apiVersion: '1.0', payload: { rorId: 'https://ror.org/\u0000' } });
    expect(answer(res)).toEqual(refused(`Request body field 'payload.rorId' ${NUL}`));
  });

  it.each([
    ['validateProviderCode', 'providerCode'],
    ['validateProviderUrlPattern', 'providerUrlPattern'],
    ['validateProviderHomeUrl', 'providerHomeUrl'],
  ])('answers 400 for a NUL sent to %s, in both areas', async (endpoint, field) => {
    for (const area of ['/prefixRegistrationApi', '/resourceManagementApi']) {
      const res = await post(`${area}/${endpoint}`, { apiVersion: '1.0', payload: { [field]: 'https://example.org/\u0000{$id}', namespacePrefix: 'go' } });
      expect(answer(res)).toEqual(refused(`Request body field 'payload.${field}' ${NUL}`));
    }
  });

  const textFields = (payload: Record<string, unknown>): string[][] =>
    Object.entries(payload).flatMap(([key, value]) => {
      if (typeof value === 'string') return [[key]];
      if (Array.isArray(value)) return [[key, '0']];
      if (value !== null && typeof value === 'object') return Object.keys(value).map((inner) => [key, inner]);
      return [];
    });
  const withNul = (payload: Record<string, unknown>, path: string[]): Record<string, unknown> => {
    const copy = structuredClone(payload);
    let holder = copy as Record<string, unknown>;
    for (const step of path.slice(0, -1)) holder = holder[step] as Record<string, unknown>;
    const last = path[path.length - 1]!;
    holder[last] = `${String(holder[last])}\u0000`;
    return copy;
  };
  const fieldName = (path: string[]) => path.map((step, i) => (/^\d+$/.test(step) ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');

  it.each([
    ['/prefixRegistrationApi/registerPrefix', prefixRegistration('hostilens')],
    ['/resourceManagementApi/registerResource', resourceRegistration('hostilecode')],
  ])('answers 400 naming the field for a NUL in any text field of %s', async (path, payload) => {
    const fields = textFields(payload);
    expect(fields.length).toBeGreaterThanOrEqual(13);
    for (const field of fields) {
      const res = await post(path, { apiVersion: '1.0', payload: withNul(payload, field) });
      expect({ field, ...answer(res) }).toEqual({ field, ...refused(`Request body field 'payload.${fieldName(field)}' ${NUL}`) });
    }
  });

  it('answers 400 for a lone surrogate in a string or a key', async () => {
    const surrogate = 'holds an unpaired UTF-16 surrogate (U+D800); send well-formed Unicode text';
    // Written by hand: JSON.stringify would escape the surrogate the same way, but this is what a client sends.
    const res = await post('/prefixRegistrationApi/validateRequesterEmail', '{"apiVersion":"1.0","payload":{"requester":{"email":"a\\ud800@example.org"}}}');
    expect(answer(res)).toEqual(refused(`Request body field 'payload.requester.email' ${surrogate}`));
    const keyed = await post('/prefixRegistrationApi/validateName', '{"apiVersion":"1.0","payload":{"name":"x","\\ud800":1}}');
    expect(answer(keyed)).toEqual(refused(`Request body field name 'payload["\\ud800"]' ${surrogate}`));
  });

  it('answers 400 for a body nested 5,000 deep sent with an Idempotency-Key', async () => {
    for (const [open, close] of [['{"a":', '}'], ['[', ']']]) {
      const deep = `{"apiVersion":"1.0","payload":{"name":${open!.repeat(5000)}1${close!.repeat(5000)}}}`;
      for (const path of ['/prefixRegistrationApi/registerPrefix', '/resourceManagementApi/registerResource']) {
        const res = await post(path, deep, { 'Idempotency-Key': `deep-${path.length}-${open}` });
        expect(answer(res)).toEqual(refused('Request body is nested more than 64 levels deep'));
      }
    }
  });

  it('answers 400 for a body that is not UTF-8', async () => {
    const bytes = Buffer.concat([Buffer.from('{"apiVersion":"1.0","payload":{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}}')]);
    expect(answer(await post('/prefixRegistrationApi/validateName', bytes))).toEqual(refused('Request body is not valid UTF-8'));
  });

  it('still accepts escapes, emoji and other scripts in every field', async () => {
    const res = await post('/prefixRegistrationApi/validateName', '{"apiVersion":"1.0","payload":{"name":"Gr\\u00fc\\u00dfe \\ud83d\\ude00 中文"}}');
    expect(res.status).toBe(200);
  });
});

describe('the resolver area', () => {
  const resolve = (path: string, headers: Record<string, string> = {}) => areas.resolver.send({ method: 'GET', path, headers });

  it('redirects a browser to a provider URL beyond Latin-1 with an ASCII Location that decodes back to it', async () => {
    const res = await resolve('/doi:10.1038/nbt1156%E4%B8%AD', { Accept: 'text/html' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('https://doi.org/10.1038/nbt1156%E4%B8%AD');
    expect(decodeURI(res.headers.location!)).toBe('https://doi.org/10.1038/nbt1156中');
  });

  it('redirects every namespace whose pattern takes a LUI beyond Latin-1 with a visible-ASCII Location', async () => {
    // The complete dataset has 15 such namespaces (redirect-location.real-data.test.ts); the sample has two.
    const namespaces = JSON.parse(readFileSync(SAMPLE_REGISTRY, 'utf8')) as { prefix: string; sampleId: string }[];
    const redirected: string[] = [];
    for (const { prefix, sampleId } of namespaces) {
      const path = `/${prefix}:${encodeURI(sampleId)}%E4%B8%AD`;
      const res = await resolve(path, { Accept: 'text/html' });
      expect({ path, status: res.status < 500 }).toEqual({ path, status: true });
      if (res.status !== 302) continue;
      redirected.push(prefix);
      expect(res.headers.location).toMatch(/^[\x21-\x7e]+$/);
      expect(decodeURI(res.headers.location!)).toContain('中');
    }
    expect(redirected).toEqual(['doi', 'mzspec']);
  });

  it('percent-encodes Latin-1 characters of a Location instead of sending them as raw bytes', async () => {
    const res = await resolve('/doi:10.1038/caf%C3%A9?redirect=true');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('https://doi.org/10.1038/caf%C3%A9');
  });

  it('answers a compact identifier holding a NUL as any identifier that does not resolve (not 5xx)', async () => {
    const json = await resolve('/GO:0006915%00');
    expect(json.status).toBe(400);
    expect(JSON.parse(json.text).errorMessage).toMatch(/DOES NOT MATCH local IDs definition pattern/);
    expect((await resolve('/GO:0006915%00', { Accept: 'text/html' })).status).toBe(404);
  });

  it('reflects markup in a failed request only as text on the failure page, wherever the page shows the request', async () => {
    // Elements and attributes the page itself writes; anything else would have come from the request.
    const PAGE_ELEMENTS = new Set([
      'html', 'head', 'meta', 'title', 'link', 'body', 'a', 'header', 'nav', 'ul', 'li', 'main', 'h1', 'h2', 'p', 'code', 'section',
      'details', 'summary', 'form', 'div', 'label', 'span', 'input', 'button', 'footer',
    ]);
    const PAGE_ATTRIBUTES = new Set(['lang', 'charset', 'name', 'content', 'rel', 'href', 'class', 'id', 'tabindex', 'aria-label', 'aria-labelledby', 'action', 'method', 'role', 'for', 'type', 'value', 'data-suggest', 'aria-describedby']);
    for (const path of [
      // An unknown prefix: the heading, the explanation, the search box's value.
      '/%3Cscript%3Ealert(1)%3C%2Fscript%3E:1',
      '/%22%20autofocus%20onfocus=%22alert(1):1',
      // A LUI the pattern refuses, and one to mend.
      '/taxonomy:%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E',
      '/taxonomy:%3Csvg%20onload=alert(1)%3E%2F',
      // A provider code no provider has: the explanation and the mended identifier without it.
      '/%3Ciframe%20src=javascript:alert(1)%3E/taxonomy:9606',
      // A close prefix the request resolves on: the request, rewritten, becomes a link.
      '/doii:10.1038/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    ]) {
      const res = await resolve(path, { Accept: 'text/html' });
      expect([path, res.status]).toEqual([path, 404]);
      const elements = [...res.text.matchAll(/<([A-Za-z][\w-]*)/g)].map((m) => m[1]!.toLowerCase());
      expect([path, elements.filter((name) => !PAGE_ELEMENTS.has(name))]).toEqual([path, []]);
      const attributes = [...res.text.matchAll(/<[a-z][\w-]*((?:\s+[\w-]+(?:="[^"]*")?)*)\s*\/?>/g)].flatMap((m) => [...m[1]!.matchAll(/([\w-]+)(?:="[^"]*")?/g)].map((a) => a[1]!));
      expect([path, attributes.filter((name) => !PAGE_ATTRIBUTES.has(name))]).toEqual([path, []]);
      expect(res.text).not.toMatch(/href="(?!https?:\/\/|\/|#)/);
    }
    // The rewritten request is offered, as a link whose address carries the markup percent-encoded.
    const doi = await resolve('/doii:10.1038/%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E', { Accept: 'text/html' });
    expect(doi.text).toContain('href="https://resolver.test/doi:10.1038/%22%3E%3Cscript%3Ealert(1)%3C/script%3E"');
  });

  it('answers 400 naming the field for a NUL in reverse lookups and batches', async () => {
    const send = (path: string, body: unknown) => areas.resolver.send({ method: 'POST', path, headers: JSON_TYPE, body: JSON.stringify(body) });
    expect(answer(await send('/reverse/byPrefix', { apiVersion: '1.0', payload: { url: 'https://x.test/\u0000' } }))).toEqual(
      refused(`Request body field 'payload.url' ${NUL}`),
    );
    expect(answer(await send('/resolve/batch', { compactIdentifiers: ['GO:0006915', 'GO:\u0000'] }))).toEqual(
      refused(`Request body field 'compactIdentifiers[1]' ${NUL}`),
    );
    expect(answer(await areas.resolver.send({ method: 'GET', path: '/resolveMirId/%00' }))).toEqual(refused(`The request path ${NUL}`));
  });
});
