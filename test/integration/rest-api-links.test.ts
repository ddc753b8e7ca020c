import request from 'supertest';
import { REGISTRY_URL as BASE, startRegistry, type RegistryUnderTest } from '../support/areas.js';

const API = `${BASE}/restApi`;
const CURATOR_TOKEN = 'links-test-curator-token-0123456789abcdef';
const PERSON = { fullName: 'Ada Contact', email: 'ada.contact@example.org' };

/**
 * A value from the sample registry for every parameter of every search the API lists (paging parameters
 * are left out). A search listed without an entry here fails the walk, so a new search gets walked too.
 */
const SEARCH_VALUES: Record<string, Record<string, string>> = {
  'namespaces/findByPrefix': { prefix: '3dmet' },
  'namespaces/existsNamespaceByPrefix': { prefix: '3dmet' },
  'namespaces/findByPrefixStartsWith': { prefixStart: 'p' },
  'namespaces/findByPrefixStartsWithNumbers': {},
  'namespaces/findByPrefixContaining': { content: 'e' },
  'namespaces/findByMirId': { mirId: 'MIR:00000066' },
  'resources/findAllByNamespaceId': { id: '1' },
  'resources/findAllByInstitutionId': { id: '2' },
  'resources/findByNamespaceIdAndProviderCode': { namespaceId: '1', providerCode: 'ebi' },
  'resources/findByProviderCode': { providerCode: 'ncbi' },
  'resources/findByMirId': { mirId: 'MIR:00100095' },
  'institutions/findByName': { name: 'INRIA' },
  'institutions/findByRorId': { rorId: 'https://ror.org/02kvxyf05' },
  'institutions/findByNameContaining': { nameContent: 'Institute' },
  'institutions/findByNameContainingIgnoreCase': { nameContent: 'institute' },
  'institutions/findByLocationCountryCode': { countryCode: 'GB' },
  'locations/findByCountryCode': { countryCode: 'JP' },
};
const PAGING = new Set(['page', 'size', 'sort']);

let testDb: RegistryUnderTest;
let personId: number;

beforeAll(async () => {
  testDb = await startRegistry('rest_api_links', { env: { CURATOR_TOKEN } });
  // Imported data has no persons; acceptance makes the requester the contact of what it creates. Here 3dmet
  // and its resource get one, so that the walk meets contact persons both present and absent.
  const [person] = (await testDb.db('persons').insert(PERSON).returning('id')) as { id: number }[];
  personId = person!.id;
  await testDb.db('namespaces').where({ id: 230 }).update({ contactPersonId: personId });
  await testDb.db('resources').where({ id: 232 }).update({ contactPersonId: personId });
});
afterAll(() => testDb.close());

interface HalLink {
  href: string;
  templated?: boolean;
}
type HalBody = { _links?: Record<string, HalLink>; _embedded?: Record<string, HalBody[]> } & Record<string, unknown>;

const get = (path: string) => request(testDb.app).get(path);
const asCurator = (path: string) => get(path).set('Authorization', `Bearer ${CURATOR_TOKEN}`);
const pathOf = (href: string): string => {
  expect(href.startsWith(API)).toBe(true);
  return href.slice(BASE.length);
};

/** Expands `{?a,b}` with the given values (paging parameters left out); fails on a parameter without one. */
function expand(href: string, values: Record<string, string> = {}): string {
  return href.replace(/\{\?([^}]*)\}/, (_template, names: string) => {
    const query = new URLSearchParams();
    for (const name of names.split(',')) {
      if (PAGING.has(name)) continue;
      const value = values[name];
      if (value === undefined) throw new Error(`no sample value for parameter '${name}' of ${href}`);
      query.append(name, value);
    }
    const text = query.toString();
    return text === '' ? '' : `?${text}`;
  });
}

/** Every `_links` href of a HAL body: its own and those of its embedded items. */
function linksOf(body: HalBody): { rel: string; link: HalLink }[] {
  const links = Object.entries(body._links ?? {}).map(([rel, link]) => ({ rel, link }));
  for (const items of Object.values(body._embedded ?? {})) {
    for (const item of items) links.push(...linksOf(item));
  }
  return links;
}

interface Visit {
  rel: string;
  path: string;
  status: number;
  errorMessage?: unknown;
}

/**
 * Follows every link of the given bodies, and the links of what those answer, `depth` levels deep, each URL
 * once. A link's answer is fine when it is 200, or a 404 in the envelope that is not the router's "No such
 * endpoint" (an empty to-one association, as the reference answers). Returns every visit and the faults.
 */
async function walk(start: HalBody[], depth: number): Promise<{ visits: Visit[]; faults: string[] }> {
  const seen = new Set<string>();
  const visits: Visit[] = [];
  const faults: string[] = [];
  let frontier = start.flatMap(linksOf);
  for (let level = 0; level < depth && frontier.length > 0; level += 1) {
    const next: { rel: string; link: HalLink }[] = [];
    for (const { rel, link } of frontier) {
      // Templated links are the collections of the root and the searches of a search index: expanded
      // without parameters, which every one of them accepts except the searches (walked on their own).
      const path = pathOf(link.templated ? link.href.replace(/\{\?[^}]*\}$/, '') : link.href);
      if (seen.has(path)) continue;
      seen.add(path);
      if (link.templated && path.includes('/search/')) continue;
      const res = await get(path);
      const body = res.body as HalBody;
      visits.push({ rel, path, status: res.status, errorMessage: body.errorMessage });
      if (res.status === 200) {
        if (typeof body === 'object' && body !== null) next.push(...linksOf(body));
      } else if (res.status !== 404 || typeof body.errorMessage !== 'string' || body.payload !== null || /^No such endpoint/.test(body.errorMessage)) {
        faults.push(`${rel} ${path}: ${res.status} ${JSON.stringify(body)}`);
      }
    }
    frontier = next;
  }
  return { visits, faults };
}

describe('every link of the browse API leads to a route', () => {
  it('answers every link of a page of each collection, and of what those links lead to', async () => {
    const root = await get('/restApi');
    const collections = Object.entries(root.body._links as Record<string, HalLink>).filter(([rel]) => rel !== 'profile');
    expect(collections.map(([rel]) => rel)).toEqual(['namespaces', 'resources', 'institutions', 'locations']);
    const pages: HalBody[] = [];
    for (const [, link] of collections) {
      const page = await get(pathOf(expand(link.href)));
      expect(page.status).toBe(200);
      pages.push(page.body as HalBody);
    }
    const { visits, faults } = await walk(pages, 2);
    expect(faults).toEqual([]);
    // The walk reached the associations this test is about, both empty and not.
    const answers = (rel: string, status: number) => visits.filter((v) => v.rel === rel && v.status === status).map((v) => v.path);
    expect(answers('contactPerson', 200)).toEqual(expect.arrayContaining(['/restApi/namespaces/230/contactPerson', '/restApi/resources/232/contactPerson']));
    expect(answers('contactPerson', 404)).toContain('/restApi/namespaces/1/contactPerson');
    expect(answers('curationWarnings', 200)).toEqual(expect.arrayContaining(['/restApi/namespaces/1/curationWarnings', '/restApi/institutions/2/curationWarnings']));
    expect(answers('successor', 404)).toContain('/restApi/namespaces/1/successor');
    expect(answers('self', 200)).toContain(`/restApi/persons/${personId}`);
  });

  it('answers every link of the result of every search, run with a value from the sample registry', async () => {
    const root = await get('/restApi');
    const results: HalBody[] = [];
    const walked: string[] = [];
    for (const collection of ['namespaces', 'resources', 'institutions', 'locations']) {
      const index = await get(pathOf((root.body._links as Record<string, HalLink>)[collection]!.href.replace(/\{\?[^}]*\}$/, '/search')));
      expect(index.status).toBe(200);
      for (const [name, link] of Object.entries(index.body._links as Record<string, HalLink>)) {
        if (name === 'self') continue;
        const key = `${collection}/${name}`;
        const values = SEARCH_VALUES[key];
        if (values === undefined) throw new Error(`no sample values for the search ${key}`);
        const res = await get(pathOf(expand(link.href, values)));
        expect({ key, status: res.status }).toEqual({ key, status: 200 });
        walked.push(key);
        if (typeof res.body === 'boolean') {
          expect(res.body).toBe(true);
          continue;
        }
        const body = res.body as HalBody;
        // Each sample value finds something: the walk covers items of every kind of result.
        expect({ key, found: body._embedded ? Object.values(body._embedded).flat().length > 0 : true }).toEqual({ key, found: true });
        results.push(body);
      }
    }
    expect(walked.sort()).toEqual(Object.keys(SEARCH_VALUES).sort());
    const { faults } = await walk(results, 1);
    expect(faults).toEqual([]);
  });
});

describe('contact persons', () => {
  it('shows anyone a contact person without the e-mail address or name', async () => {
    const res = await get('/restApi/namespaces/230/contactPerson');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(res.headers.vary).toMatch(/Authorization/);
    expect(res.body).toEqual({
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      modified: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
      _links: {
        self: { href: `${API}/persons/${personId}` },
        person: { href: `${API}/persons/${personId}` },
      },
    });
    expect(res.text).not.toContain(PERSON.email);
    expect(res.text).not.toContain(PERSON.fullName);
  });

  it("shows a curator the reference's person: email, fullName, created, modified, in that order", async () => {
    const res = await asCurator('/restApi/resources/232/contactPerson');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['email', 'fullName', 'created', 'modified', '_links']);
    expect(res.body).toMatchObject({ ...PERSON, _links: { self: { href: `${API}/persons/${personId}` } } });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it("never hands a curator's answer to the next anonymous caller of the same URL", async () => {
    const curator = await asCurator('/restApi/namespaces/230/contactPerson');
    expect(curator.body.email).toBe(PERSON.email);
    const anonymous = await get('/restApi/namespaces/230/contactPerson');
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).not.toContain(PERSON.email);
  });

  it('serves the person item the contact person links to, under the same rule', async () => {
    const anonymous = await get(`/restApi/persons/${personId}`);
    expect(anonymous.status).toBe(200);
    expect(Object.keys(anonymous.body)).toEqual(['created', 'modified', '_links']);
    const curator = await asCurator(`/restApi/persons/${personId}`);
    expect(curator.body).toMatchObject(PERSON);
  });

  it('refuses a wrong bearer token instead of answering as to anyone', async () => {
    const res = await get('/restApi/namespaces/230/contactPerson').set('Authorization', 'Bearer not-the-token');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: 'The bearer token is not the curator token', payload: null });
  });

  it.each([
    ['/restApi/namespaces/1/contactPerson', "Namespace with id '1' has no contact person"],
    ['/restApi/resources/3/contactPerson', "Resource with id '3' has no contact person"],
    ['/restApi/namespaces/424242/contactPerson', "Namespace with id '424242' not found"],
    ['/restApi/resources/abc/contactPerson', "Resource with id 'abc' not found"],
    ['/restApi/persons/424242', "Person with id '424242' not found"],
  ])('answers 404 in the envelope for %s', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: message, payload: null });
  });
});

describe('curation warnings', () => {
  it.each(['namespaces/230', 'resources/232', 'institutions/231'])('lists no warnings for %s, in the HAL shape of an empty association', async (item) => {
    const res = await get(`/restApi/${item}/curationWarnings`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(res.body).toEqual({ _embedded: { curationWarnings: [] }, _links: { self: { href: `${API}/${item}/curationWarnings` } } });
  });

  it('lists a pattern-backtracking warning for a namespace whose pattern can backtrack catastrophically', async () => {
    const res = await get('/restApi/namespaces/1817/curationWarnings');
    expect(res.status).toBe(200);
    const warnings = (res.body as { _embedded: { curationWarnings: Record<string, unknown>[] } })._embedded.curationWarnings;
    const since = '2020-11-27T10:57:55.228+00:00';
    expect(warnings).toEqual([
      {
        globalId: 'pattern-backtracking:namespace:pattern:1817',
        type: 'pattern-backtracking',
        open: true,
        created: since,
        modified: since,
        lastNotification: since,
        latestEvent: { type: 'CREATED', created: since },
        moreDetails: {
          'field-name': 'pattern',
          pattern: '^swh:[1-9]:(cnt|dir|rel|rev|snp):[0-9a-f]+(;(origin|visit|anchor|path|lines)=\\S+)*$',
          verdict: 'vulnerable',
          complexity: 'exponential',
          'slow-input': expect.stringMatching(/^'swh:1:.*\.repeat\(\d+\)/),
          cause: expect.stringMatching(/^its parts '.+' can match the same characters in more than one way$/),
          advice: "Rewrite it so that each character can be matched in only one way (for example '[A-Z]+\\d+' rather than '\\w+\\d+')",
          'resolver-engine': 'linear-time: the resolver matches identifiers against it with a linear-time engine, so it stays fast',
        },
        _links: { target: { href: `${API}/namespaces/1817` } },
      },
    ]);
    expect(Object.keys(warnings[0]!)).toEqual(['globalId', 'type', 'open', 'created', 'modified', 'lastNotification', 'latestEvent', 'moreDetails', '_links']);
  });

  it.each([
    ['/restApi/namespaces/424242/curationWarnings', "Namespace with id '424242' not found"],
    ['/restApi/resources/424242/curationWarnings', "Resource with id '424242' not found"],
    ['/restApi/institutions/x/curationWarnings', "Institution with id 'x' not found"],
  ])('answers 404 for %s when the item does not exist', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: message, payload: null });
  });
});
