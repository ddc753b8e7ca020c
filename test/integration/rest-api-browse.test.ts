import { readFileSync } from 'node:fs';
import request from 'supertest';
import { REGISTRY_URL as BASE, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { SAMPLE_REGISTRY } from '../support/test-database.js';

const API = `${BASE}/restApi`;
// The sample registry: 22 namespaces, 57 resources, 28 institutions; locations are all 249 ISO 3166 codes.
const SAMPLE_PREFIXES = JSON.parse(readFileSync(SAMPLE_REGISTRY, 'utf8')).map((ns: { prefix: string }) => ns.prefix) as string[];

let testDb: RegistryUnderTest;

beforeAll(async () => (testDb = await startRegistry('rest_api_browse')));
afterAll(() => testDb.close());

const get = (path: string) => request(testDb.app).get(path);
const prefixesOf = (body: { _embedded: { namespaces: { prefix: string }[] } }) => body._embedded.namespaces.map((n) => n.prefix);
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('GET /restApi', () => {
  it('lists the four collections as templated links, plus the profile', async () => {
    const res = await get('/restApi');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(res.body).toEqual({
      _links: {
        namespaces: { href: `${API}/namespaces{?page,size,sort}`, templated: true },
        resources: { href: `${API}/resources{?page,size,sort}`, templated: true },
        institutions: { href: `${API}/institutions{?page,size,sort}`, templated: true },
        locations: { href: `${API}/locations{?page,size,sort}`, templated: true },
        profile: { href: `${API}/profile` },
      },
    });
  });

  it('serves the profile each collection links to', async () => {
    const index = await get('/restApi/profile');
    expect(index.body._links.namespaces).toEqual({ href: `${API}/profile/namespaces` });
    const res = await get('/restApi/profile/namespaces');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/alps\+json/);
    const representation = res.body.alps.descriptor[0];
    expect(representation.id).toBe('namespace-representation');
    expect(representation.descriptor.map((d: { name: string }) => d.name)).toContain('namespaceEmbeddedInLui');
  });
});

describe('collection pages', () => {
  it('answers the first page of namespaces in HAL with page links and totals', async () => {
    const res = await get('/restApi/namespaces');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(Object.keys(res.body)).toEqual(['_embedded', '_links', 'page']);
    expect(res.body._embedded.namespaces).toHaveLength(20);
    expect(res.body.page).toEqual({ size: 20, totalElements: 22, totalPages: 2, number: 0 });
    expect(res.body._links).toEqual({
      first: { href: `${API}/namespaces?page=0&size=20` },
      self: { href: `${API}/namespaces` },
      next: { href: `${API}/namespaces?page=1&size=20` },
      last: { href: `${API}/namespaces?page=1&size=20` },
      profile: { href: `${API}/profile/namespaces` },
      search: { href: `${API}/namespaces/search` },
    });
  });

  it.each([
    ['resources', 57],
    ['institutions', 28],
    ['locations', 249],
  ])('pages through %s with their total', async (collection, total) => {
    const res = await get(`/restApi/${collection}?size=7`);
    expect(res.status).toBe(200);
    expect(res.body._embedded[collection]).toHaveLength(7);
    expect(res.body.page).toEqual({ size: 7, totalElements: total, totalPages: Math.ceil(total / 7), number: 0 });
    expect(res.body._links.search).toEqual({ href: `${API}/${collection}/search` });
  });

  it('builds every href on PUBLIC_REGISTRY_URL, whatever Host the request carries', async () => {
    const res = await get('/restApi/resources?size=3').set('Host', 'evil.example').set('X-Forwarded-Host', 'evil.example');
    const hrefs = JSON.stringify(res.body).match(/"href":"[^"]*"/g) ?? [];
    expect(hrefs.length).toBeGreaterThan(20);
    for (const href of hrefs) expect(href).toMatch(/^"href":"https:\/\/registry\.test\/restApi\//);
  });

  it('answers the last page with what is left, and first/prev/last but no next', async () => {
    const res = await get('/restApi/namespaces?page=1&size=20');
    expect(res.body._embedded.namespaces).toHaveLength(2);
    expect(res.body.page).toEqual({ size: 20, totalElements: 22, totalPages: 2, number: 1 });
    expect(Object.keys(res.body._links)).toEqual(['first', 'prev', 'self', 'last', 'profile', 'search']);
    expect(res.body._links.prev).toEqual({ href: `${API}/namespaces?page=0&size=20` });
  });

  it('answers a page beyond the end with an empty list and the real totals', async () => {
    const res = await get('/restApi/namespaces?page=7');
    expect(res.status).toBe(200);
    expect(res.body._embedded).toEqual({ namespaces: [] });
    expect(res.body.page).toEqual({ size: 20, totalElements: 22, totalPages: 2, number: 7 });
    expect(res.body._links.next).toBeUndefined();
  });

  it('has no first/last links when everything fits on one page', async () => {
    const res = await get('/restApi/namespaces?size=50');
    expect(res.body._embedded.namespaces).toHaveLength(22);
    expect(Object.keys(res.body._links)).toEqual(['self', 'profile', 'search']);
  });

  it('writes the same canonical links whatever the spelling of the path', async () => {
    const res = await get('/restApi/namespaces/?size=5');
    expect(res.body._links.next).toEqual({ href: `${API}/namespaces?page=1&size=5` });
    expect(res.body._links.search).toEqual({ href: `${API}/namespaces/search` });
  });

  it('clamps a page size above 1000 to 1000', async () => {
    const res = await get('/restApi/locations?size=5000');
    expect(res.body.page).toEqual({ size: 1000, totalElements: 249, totalPages: 1, number: 0 });
    expect(res.body._embedded.locations).toHaveLength(249);
  });

  it.each([
    ['page=undefined&size=undefined', 0, 20],
    ['page=-1&size=-5', 0, 20],
    ['page=abc&size=0', 0, 20],
    ['page=1.5&size=2e1', 0, 20],
    ['page=&size=', 0, 20],
    ['page=%00&size=%20', 0, 20],
    ['page=1&size=3&page=9', 1, 3],
  ])('falls back to the defaults for junk paging values (%s)', async (query, number, size) => {
    const res = await get(`/restApi/namespaces?${query}`);
    expect(res.status).toBe(200);
    expect(res.body.page).toMatchObject({ number, size });
  });

  it('treats an enormous page number as past the end, with correct totals', async () => {
    const res = await get('/restApi/namespaces?page=99999999999999999999&size=99999999999999999999');
    expect(res.status).toBe(200);
    expect(res.body._embedded.namespaces).toEqual([]);
    expect(res.body.page).toEqual({ size: 1000, totalElements: 22, totalPages: 1, number: 2147483647 });
  });

  it('ignores unknown query parameters', async () => {
    const plain = await get('/restApi/namespaces?size=5');
    const noisy = await get('/restApi/namespaces?size=5&foo=bar&projection=x&page%5B%5D=1');
    expect(noisy.status).toBe(200);
    expect(prefixesOf(noisy.body)).toEqual(prefixesOf(plain.body));
    expect(noisy.body._links.next).toEqual({ href: `${API}/namespaces?page=1&size=5` });
  });

  it('gives self as the request URL and page links carrying page, size and sort', async () => {
    const res = await get('/restApi/namespaces?sort=prefix,desc&page=1&size=5');
    expect(res.body._links).toMatchObject({
      first: { href: `${API}/namespaces?page=0&size=5&sort=prefix,desc` },
      prev: { href: `${API}/namespaces?page=0&size=5&sort=prefix,desc` },
      self: { href: `${API}/namespaces?sort=prefix,desc&page=1&size=5` },
      next: { href: `${API}/namespaces?page=2&size=5&sort=prefix,desc` },
      last: { href: `${API}/namespaces?page=4&size=5&sort=prefix,desc` },
    });
  });
});

describe('sorting', () => {
  it('sorts ascending and descending by a property', async () => {
    const sorted = [...SAMPLE_PREFIXES].sort(byCodeUnit);
    const asc = await get('/restApi/namespaces?size=50&sort=prefix,asc');
    expect(prefixesOf(asc.body)).toEqual(sorted);
    const desc = await get('/restApi/namespaces?size=50&sort=prefix,desc');
    expect(prefixesOf(desc.body)).toEqual([...sorted].reverse());
    const bare = await get('/restApi/namespaces?size=50&sort=prefix');
    expect(prefixesOf(bare.body)).toEqual(sorted);
  });

  it('applies repeated sort parameters in order', async () => {
    const res = await get('/restApi/namespaces?size=3&sort=deprecated,desc&sort=prefix,desc');
    expect(prefixesOf(res.body)).toEqual(['3dmet', 'uniprot', 'taxonomy']);
    expect(res.body._links.next.href).toBe(`${API}/namespaces?page=1&size=3&sort=deprecated,desc&sort=prefix,desc`);
  });

  it('sorts locations by country name and institutions by their exposed id', async () => {
    const codes = (body: { _embedded: { locations: { countryCode: string }[] } }) => body._embedded.locations.map((l) => l.countryCode);
    const asc = await get('/restApi/locations?size=1000&sort=countryName,asc');
    const desc = await get('/restApi/locations?size=1000&sort=countryName,desc');
    expect(codes(asc.body)).toHaveLength(249);
    expect(codes(desc.body)).toEqual([...codes(asc.body)].reverse());
    expect(codes(asc.body)).not.toEqual([...codes(asc.body)].sort());
    const institutions = await get('/restApi/institutions?size=3&sort=id,desc');
    expect(institutions.body._embedded.institutions.map((i: { id: number }) => i.id)).toEqual([3060, 2745, 1914]);
  });

  it('ignores unknown or hostile sort properties and keeps the default order', async () => {
    const plain = await get('/restApi/namespaces?size=50');
    for (const sort of ['bogus,desc', ';drop table namespaces', 'prefix;drop table namespaces,desc', "name') desc--", 'constructor', `${'x'.repeat(5000)},asc`]) {
      const res = await get(`/restApi/namespaces?size=50&sort=${encodeURIComponent(sort)}`);
      expect(res.status).toBe(200);
      expect(prefixesOf(res.body)).toEqual(prefixesOf(plain.body));
      expect(res.body._links.self.href).toContain('sort=');
    }
    const still = await get('/restApi/namespaces?size=1');
    expect(still.body.page.totalElements).toBe(22);
  });

  it('breaks ties by id, so paging through a sort with ties returns every item exactly once', async () => {
    const seen: string[] = [];
    for (let page = 0; page < 5; page++) {
      const res = await get(`/restApi/namespaces?size=5&page=${page}&sort=deprecated,asc`);
      seen.push(...prefixesOf(res.body));
    }
    expect(seen).toHaveLength(22);
    expect(new Set(seen).size).toBe(22);
    const again = await get('/restApi/namespaces?size=5&page=2&sort=deprecated,asc');
    expect(prefixesOf(again.body)).toEqual(seen.slice(10, 15));
  });

  it('orders by id when no sort is given', async () => {
    const res = await get('/restApi/namespaces?size=4');
    expect(res.body._embedded.namespaces.map((n: { _links: { self: { href: string } } }) => n._links.self.href)).toEqual(
      [1, 7, 23, 28].map((id) => `${API}/namespaces/${id}`),
    );
  });
});

describe('items', () => {
  it('renders a namespace with the reference fields in order, its suffix passthrough and synonyms, and its association links', async () => {
    const res = await get('/restApi/namespaces/230');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(res.headers['last-modified']).toBe(new Date('2024-02-12T09:37:02.753Z').toUTCString());
    // The reference's fields in its order; the additions after them: `suffixPassthrough` (issue 25 item 5)
    // and `synonyms` (issue 15 item 1).
    expect(Object.keys(res.body)).toEqual([
      'prefix', 'mirId', 'name', 'pattern', 'description', 'created', 'modified', 'deprecated', 'deprecationDate',
      'deprecationOfflineDate', 'renderDeprecatedLanding', 'deprecationStatement', 'infoOnPostmortemAccess', 'sampleId',
      'namespaceEmbeddedInLui', 'suffixPassthrough', 'synonyms', '_links',
    ]);
    expect(res.body.synonyms).toEqual([]);
    expect(res.body.suffixPassthrough).toBe(false);
    expect(res.body).toMatchObject({
      prefix: '3dmet',
      mirId: 'MIR:00000066',
      pattern: '^B\\d{5}$',
      created: '2019-06-11T14:15:50.652+00:00',
      modified: '2024-02-12T09:37:02.753+00:00',
      deprecated: true,
      deprecationDate: '2024-02-12T09:35:45.473+00:00',
      deprecationOfflineDate: null,
      sampleId: 'B00162',
      namespaceEmbeddedInLui: false,
    });
    expect(res.body._links).toEqual({
      self: { href: `${API}/namespaces/230` },
      namespace: { href: `${API}/namespaces/230` },
      successor: { href: `${API}/namespaces/230/successor` },
      contactPerson: { href: `${API}/namespaces/230/contactPerson` },
      resources: { href: `${API}/namespaces/230/resources` },
      curationWarnings: { href: `${API}/namespaces/230/curationWarnings` },
    });
  });

  it('renders a resource with the reference fields in order and its association links', async () => {
    const res = await get('/restApi/resources/232');
    expect(Object.keys(res.body)).toEqual([
      'mirId', 'urlPattern', 'name', 'description', 'official', 'providerCode', 'sampleId', 'resourceHomeUrl', 'created',
      'modified', 'deprecated', 'deprecationDate', 'deprecationOfflineDate', 'renderDeprecatedLanding', 'deprecationStatement',
      'protectedUrls', 'renderProtectedLanding', 'authHelpUrl', 'authHelpDescription', '_links',
    ]);
    expect(res.body).toMatchObject({ mirId: 'MIR:00100095', providerCode: 'nias', urlPattern: 'http://www.3dmet.dna.affrc.go.jp/cgi/show_data.php?acc={$id}' });
    expect(res.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    expect(res.body._links).toEqual({
      self: { href: `${API}/resources/232` },
      resource: { href: `${API}/resources/232` },
      institution: { href: `${API}/resources/232/institution` },
      location: { href: `${API}/resources/232/location` },
      namespace: { href: `${API}/resources/232/namespace` },
      contactPerson: { href: `${API}/resources/232/contactPerson` },
      curationWarnings: { href: `${API}/resources/232/curationWarnings` },
    });
  });

  it('renders an institution with its exposed id first', async () => {
    const res = await get('/restApi/institutions/231');
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'homeUrl', 'description', 'created', 'modified', 'rorId', '_links']);
    expect(res.body).toMatchObject({ id: 231, name: 'National Institute of Agrobiological Sciences', rorId: 'https://ror.org/01786mp71' });
    expect(Object.keys(res.body._links)).toEqual(['self', 'institution', 'location', 'resource', 'curationWarnings']);
    expect(res.body._links.location).toEqual({ href: `${API}/institutions/231/location` });
  });

  it('renders a location with its country code first and links by that code', async () => {
    const res = await get('/restApi/locations/JP');
    expect(Object.keys(res.body)).toEqual(['countryCode', 'countryName', 'created', '_links']);
    expect(res.body).toMatchObject({ countryCode: 'JP', countryName: 'Japan' });
    expect(res.body._links).toEqual({ self: { href: `${API}/locations/JP` }, location: { href: `${API}/locations/JP` } });
  });

  it.each([
    ['/restApi/namespaces/abc', "Namespace with id 'abc' not found"],
    ['/restApi/namespaces/999999', "Namespace with id '999999' not found"],
    ['/restApi/namespaces/-1', "Namespace with id '-1' not found"],
    ['/restApi/namespaces/99999999999999999999999', "Namespace with id '99999999999999999999999' not found"],
    ['/restApi/resources/1.5', "Resource with id '1.5' not found"],
    ['/restApi/institutions/0x10', "Institution with id '0x10' not found"],
    ['/restApi/locations/jp', "Location with country code 'jp' not found"],
    ['/restApi/locations/XYZ', "Location with country code 'XYZ' not found"],
  ])('answers 404 in the envelope for %s, saying what is missing', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: message, payload: null });
  });

  it('lists the searches of each collection as templated links', async () => {
    const namespaces = await get('/restApi/namespaces/search');
    expect(namespaces.status).toBe(200);
    expect(namespaces.body._links).toEqual({
      findByPrefix: { href: `${API}/namespaces/search/findByPrefix{?prefix}`, templated: true },
      existsNamespaceByPrefix: { href: `${API}/namespaces/search/existsNamespaceByPrefix{?prefix}`, templated: true },
      findByPrefixStartsWith: { href: `${API}/namespaces/search/findByPrefixStartsWith{?prefixStart,page,size,sort}`, templated: true },
      findByPrefixStartsWithNumbers: { href: `${API}/namespaces/search/findByPrefixStartsWithNumbers{?page,size,sort}`, templated: true },
      findByPrefixContaining: { href: `${API}/namespaces/search/findByPrefixContaining{?content,page,size,sort}`, templated: true },
      findByMirId: { href: `${API}/namespaces/search/findByMirId{?mirId}`, templated: true },
      self: { href: `${API}/namespaces/search` },
    });
    const resources = await get('/restApi/resources/search');
    expect(Object.keys(resources.body._links)).toEqual([
      'findAllByNamespaceId', 'findAllByInstitutionId', 'findByNamespaceIdAndProviderCode', 'findByProviderCode', 'findByMirId', 'self',
    ]);
    const institutions = await get('/restApi/institutions/search');
    expect(institutions.body._links.findByNameContaining.href).toBe(`${API}/institutions/search/findByNameContaining{?nameContent,page,size,sort}`);
    const locations = await get('/restApi/locations/search');
    expect(locations.body._links.findByCountryCode).toEqual({ href: `${API}/locations/search/findByCountryCode{?countryCode}`, templated: true });
  });
});
