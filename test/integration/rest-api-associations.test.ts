import pg from 'pg';
import request from 'supertest';
import { RegistryVersionSource } from '../../src/registry/model/registry-version.js';
import { REGISTRY_URL as BASE, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { waitFor } from '../support/wait.js';
import { sendPreflight } from '../support/cors.js';

const API = `${BASE}/restApi`;

let testDb: RegistryUnderTest;

beforeAll(async () => (testDb = await startRegistry('rest_api_associations')));
afterAll(() => testDb.close());

const get = (path: string) => request(testDb.app).get(path);
const notFoundBody = (errorMessage: string) => ({ apiVersion: '1.0', errorMessage, payload: null });

describe('associations', () => {
  it("lists a namespace's resources, with a self link and no paging", async () => {
    const res = await get('/restApi/namespaces/1/resources');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(res.body._embedded.resources.map((r: { mirId: string }) => r.mirId)).toEqual(['MIR:00100009', 'MIR:00100158', 'MIR:00100565']);
    expect(res.body._links).toEqual({ self: { href: `${API}/namespaces/1/resources` } });
    expect(res.body.page).toBeUndefined();
  });

  it("follows a resource's namespace, institution and location to their own items", async () => {
    const namespace = await get('/restApi/resources/232/namespace');
    expect(namespace.body).toMatchObject({ prefix: '3dmet', _links: { self: { href: `${API}/namespaces/230` } } });
    const institution = await get('/restApi/resources/232/institution');
    expect(institution.body).toMatchObject({ id: 231, _links: { self: { href: `${API}/institutions/231` } } });
    const location = await get('/restApi/resources/232/location');
    expect(location.body).toMatchObject({ countryCode: 'JP', countryName: 'Japan', _links: { self: { href: `${API}/locations/JP` } } });
  });

  it("follows an institution's location", async () => {
    const res = await get('/restApi/institutions/1818/location');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ countryCode: 'FR', _links: { self: { href: `${API}/locations/FR` } } });
  });

  it("answers 404 for an institution's vestigial resource link, which the reference never sets", async () => {
    const res = await get('/restApi/institutions/1818/resource');
    expect(res.status).toBe(404);
    expect(res.body.errorMessage).toMatch(/^Institution with id '1818' has no resource/);
  });

  it('answers 404 for a namespace without successor, and the successor once one is set', async () => {
    const none = await get('/restApi/namespaces/230/successor');
    expect(none.status).toBe(404);
    expect(none.body).toEqual(notFoundBody("Namespace with id '230' has no successor"));
    await testDb.db('namespaces').where({ id: 230 }).update({ successorId: 2746 });
    const res = await get('/restApi/namespaces/230/successor');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ prefix: '4dn', _links: { self: { href: `${API}/namespaces/2746` } } });
  });

  it.each([
    ['/restApi/namespaces/424242/resources', "Namespace with id '424242' not found"],
    ['/restApi/namespaces/abc/successor', "Namespace with id 'abc' not found"],
    ['/restApi/namespaces/424242/successor', "Namespace with id '424242' not found"],
    ['/restApi/resources/424242/namespace', "Resource with id '424242' not found"],
    ['/restApi/resources/x/institution', "Resource with id 'x' not found"],
    ['/restApi/resources/424242/location', "Resource with id '424242' not found"],
    ['/restApi/institutions/424242/location', "Institution with id '424242' not found"],
    ['/restApi/institutions/424242/resource', "Institution with id '424242' not found"],
  ])('answers 404 for %s when the owner does not exist', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFoundBody(message));
  });
});

describe('freshness', () => {
  it('counts a namespace added to the registry at once', async () => {
    const before = await get('/restApi/namespaces?size=1');
    await testDb.db('namespaces').insert({ prefix: 'fresh', mirId: 'MIR:09999999', name: 'Fresh', pattern: '^\\d+$', description: 'New.', sampleId: '1' });
    const after = await get('/restApi/namespaces?size=1');
    expect(after.body.page.totalElements).toBe(before.body.page.totalElements + 1);
    const newest = await get('/restApi/namespaces?size=1&sort=id,desc');
    expect(newest.body._embedded.namespaces[0].prefix).toBe('fresh');
    const found = await get('/restApi/namespaces/search/findByPrefixStartsWith?prefixStart=fre&size=1');
    expect(found.body.page.totalElements).toBe(1);
    await testDb.db('namespaces').where({ prefix: 'fresh' }).delete();
    const again = await get('/restApi/namespaces?size=1');
    expect(again.body.page.totalElements).toBe(before.body.page.totalElements);
    const gone = await get('/restApi/namespaces/search/findByPrefix?prefix=fresh');
    expect(gone.status).toBe(404);
  });
});

describe('answers after a change', () => {
  it('shows an edited namespace at once, though the same URL was answered before', async () => {
    const before = await get('/restApi/namespaces/53');
    expect(before.body.name).toBe('KEGG Compound');
    const again = await get('/restApi/namespaces/53');
    expect(again.text).toBe(before.text);
    await testDb.db('namespaces').where({ id: 53 }).update({ name: 'KEGG Compound (renamed)' });
    const after = await get('/restApi/namespaces/53');
    expect(after.body.name).toBe('KEGG Compound (renamed)');
    const listed = await get('/restApi/namespaces/search/findByPrefix?prefix=kegg.compound');
    expect(listed.body.name).toBe('KEGG Compound (renamed)');
  });
});

describe('answers after a change committed out of version order', () => {
  // Registry versions are taken before commit: a transaction that started writing first can commit last
  // without moving max(version). The service's version source also counts change notifications (sent at
  // commit), so the late commit still shows, long before the few seconds a non-listening cache waits.
  it('shows the late commit once it is announced, not an answer cached in between', async () => {
    const versions = new RegistryVersionSource(testDb.db, { databaseUrl: testDb.url, logger: testDb.logger });
    await versions.start();
    const listening = testDb.registryApp({ registryVersions: versions }).callback();
    const early = new pg.Client({ connectionString: testDb.url });
    await early.connect();
    try {
      await early.query('BEGIN');
      await early.query("UPDATE namespaces SET name = 'Taxonomy (late commit)' WHERE prefix = 'taxonomy'");
      // A later write commits first and moves max(version) past the open transaction's version.
      await testDb.db('namespaces').where({ prefix: 'pdb' }).update({ name: 'PDB (early commit)' });
      const url = '/restApi/namespaces/search/findByPrefix?prefix=taxonomy';
      const before = await request(listening).get(url);
      expect(before.body.name).not.toBe('Taxonomy (late commit)');
      await early.query('COMMIT');
      // The deadline stays well within the 10 s a cache without a listener may keep the answer: seeing the
      // commit before it shows the listener emptied the cache, not the answer's age.
      const name = await waitFor(
        async () => ((await request(listening).get(url)).body.name === 'Taxonomy (late commit)' ? 'Taxonomy (late commit)' : undefined),
        { timeoutMs: 5000, everyMs: 20, what: 'the late commit showing' },
      );
      expect(name).toBe('Taxonomy (late commit)');
    } finally {
      await early.end();
      await versions.stop();
    }
  });
});

describe('hostile and odd requests', () => {
  const long = 'x'.repeat(6000);
  const paths = [
    '/restApi/namespaces/%ZZ',
    '/restApi/namespaces/%00',
    '/restApi/namespaces/%E0%A4%A',
    `/restApi/namespaces/${'9'.repeat(400)}`,
    `/restApi/locations/${long}`,
    '/restApi/locations/%00%00',
    '/restApi/namespaces/1%20OR%201=1',
    "/restApi/namespaces/1'--/resources",
    '/restApi/namespaces?page=99999999999999999999&size=99999999999999999999',
    '/restApi/namespaces?page=2147483648&size=1000',
    '/restApi/namespaces?page=2147483647&size=1',
    '/restApi/resources?sort=;drop%20table%20resources&sort=name,sideways',
    '/restApi/resources?sort=__proto__,desc&sort=toString',
    `/restApi/institutions?sort=${long}&page=${long}&size=${long}`,
    `/restApi/namespaces/search/findByPrefixContaining?content=${long}`,
    '/restApi/namespaces/search/findByPrefixContaining?content=%25%25%25&page=-3',
    '/restApi/namespaces/search/findByPrefix?prefix=a&prefix=b',
    '/restApi/resources/search/findAllByNamespaceId?id=1e400',
    `/restApi/resources/search/findAllByInstitutionId?id=${'9'.repeat(30)}`,
    '/restApi/institutions/search/findByNameContainingIgnoreCase?nameContent=%5C%5C%25_',
    '/restApi/locations/search/findByCountryCode?countryCode[]=GB',
    '/restApi/namespaces/search/',
    '/restApi/namespaces/search/findByPrefix/extra',
    '/restApi/../restApi/namespaces',
    '/restApi/%2e%2e/namespaces',
    '/restApi/nothing',
  ];

  it.each(paths.map((p) => [p.length > 120 ? `${p.slice(0, 120)}...` : p, p]))('never answers 5xx to %s', async (_label, path) => {
    const res = await get(path);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toBeDefined();
  });

  it('answers a page far beyond the end with an empty list and the real totals', async () => {
    const res = await get('/restApi/namespaces?page=2147483647&size=1');
    expect(res.status).toBe(200);
    expect(res.body._embedded).toEqual({ namespaces: [] });
    expect(res.body.page).toEqual({ size: 1, totalElements: 22, totalPages: 22, number: 2147483647 });
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await request(testDb.app).head('/restApi/namespaces/230');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
  });

  it('refuses writes with 405 in the envelope', async () => {
    const res = await request(testDb.app).delete('/restApi/namespaces/230');
    expect(res.status).toBe(405);
    expect(res.body.errorMessage).toMatch(/not allowed/);
  });

  it('opens the API to any origin, including the CORS preflight', async () => {
    const res = await get('/restApi/namespaces?size=1').set('Origin', 'https://elsewhere.example');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await sendPreflight(testDb.app, '/restApi/namespaces/search/findByPrefix?prefix=go', 'https://elsewhere.example', 'GET', 'Accept');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
  });
});
