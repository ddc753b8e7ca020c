import { readFileSync } from 'node:fs';
import request from 'supertest';
import type { DatasetNamespace } from '../../src/importer/dataset.schema.js';
import { validateNamespaces } from '../../src/importer/read-dataset.js';
import { REGISTRY_URL as BASE, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { SAMPLE_REGISTRY } from '../support/test-database.js';

const API = `${BASE}/restApi`;
const sample = validateNamespaces(JSON.parse(readFileSync(SAMPLE_REGISTRY, 'utf8'))) as DatasetNamespace[];
const sampleResources = sample.flatMap((ns) => ns.resources);
const sampleInstitutions = [...new Map(sampleResources.map((r) => [r.institution.name, { id: Number(r.institution.id), name: r.institution.name }])).values()];
// Prefixes and institution names full of LIKE wildcards, to show they are matched literally.
const WILD_PREFIXES = ['lik_e', 'likxe', 'lik%e', 'likyye', 'lik\\e'];

let testDb: RegistryUnderTest;

beforeAll(async () => {
  testDb = await startRegistry('rest_api_search');
  await testDb.db('namespaces').insert(
    WILD_PREFIXES.map((prefix, i) => ({
      prefix,
      mirId: `MIR:0990000${i}`,
      name: `Wildcard ${i}`,
      pattern: '^\\d+$',
      description: 'A namespace whose prefix holds LIKE wildcards.',
      sampleId: '1',
    })),
  );
  await testDb.db('institutions').insert([
    { name: '100% Institute_A', homeUrl: 'https://a.example', description: 'x', locationCountryCode: 'FR' },
    { name: '100x Institute-A', homeUrl: 'https://b.example', description: 'x', locationCountryCode: 'FR' },
  ]);
});
afterAll(() => testDb.close());

const get = (path: string) => request(testDb.app).get(path);
const search = (collection: string, query: string) => get(`/restApi/${collection}/search/${query}`);
const selfId = (item: { _links: { self: { href: string } } }) => item._links.self.href.split('/').pop();
type Listed<K extends string, T> = { _embedded: Record<K, T[]> };
const prefixesOf = (body: Listed<'namespaces', { prefix: string }>) => body._embedded.namespaces.map((n) => n.prefix);
const mirIdsOf = (body: Listed<'resources', { mirId: string }>) => body._embedded.resources.map((r) => r.mirId);
const idsOf = (body: Listed<'institutions', { id: number }>) => body._embedded.institutions.map((i) => i.id);
const notFoundBody = (errorMessage: string) => ({ apiVersion: '1.0', errorMessage, payload: null });

describe('namespace searches', () => {
  it('finds a namespace by its exact prefix', async () => {
    const res = await search('namespaces', 'findByPrefix?prefix=go');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(res.body).toMatchObject({ prefix: 'go', mirId: 'MIR:00000022', name: 'Gene Ontology' });
    expect(res.body._links.self).toEqual({ href: `${API}/namespaces/87` });
  });

  it('answers 404 when no namespace has the prefix, matching case exactly', async () => {
    for (const prefix of ['GO', 'nope', 'g%']) {
      const res = await search('namespaces', `findByPrefix?prefix=${encodeURIComponent(prefix)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFoundBody(`Namespace with prefix '${prefix}' not found`));
    }
  });

  it('answers whether a prefix exists with a bare JSON boolean', async () => {
    const yes = await search('namespaces', 'existsNamespaceByPrefix?prefix=chebi');
    expect(yes.status).toBe(200);
    expect(yes.text).toBe('true');
    expect(yes.body).toBe(true);
    const no = await search('namespaces', 'existsNamespaceByPrefix?prefix=CHEBI');
    expect(no.status).toBe(200);
    expect(no.text).toBe('false');
  });

  it('pages the namespaces whose prefix starts with a text, links carrying the search parameter', async () => {
    const res = await search('namespaces', 'findByPrefixStartsWith?prefixStart=p&size=2');
    expect(res.status).toBe(200);
    expect(prefixesOf(res.body)).toEqual(['pdb', 'pmc']);
    expect(res.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 0 });
    expect(res.body._links).toEqual({
      first: { href: `${API}/namespaces/search/findByPrefixStartsWith?prefixStart=p&page=0&size=2` },
      self: { href: `${API}/namespaces/search/findByPrefixStartsWith?prefixStart=p&size=2` },
      next: { href: `${API}/namespaces/search/findByPrefixStartsWith?prefixStart=p&page=1&size=2` },
      last: { href: `${API}/namespaces/search/findByPrefixStartsWith?prefixStart=p&page=1&size=2` },
    });
  });

  it('lists prefix search results by prefix unless asked for another order', async () => {
    const byPrefix = await search('namespaces', 'findByPrefixContaining?content=e');
    const prefixes = prefixesOf(byPrefix.body);
    expect(prefixes).toEqual([...prefixes].sort());
    const byId = await search('namespaces', 'findByPrefixStartsWith?prefixStart=p&sort=id,desc');
    expect(prefixesOf(byId.body)).toEqual(['pmc', 'pdb', 'pubmed']);
  });

  it('answers an empty page, not a 404, when a paged search finds nothing', async () => {
    const res = await search('namespaces', 'findByPrefixStartsWith?prefixStart=zzz');
    expect(res.status).toBe(200);
    expect(res.body._embedded).toEqual({ namespaces: [] });
    expect(res.body.page).toEqual({ size: 20, totalElements: 0, totalPages: 0, number: 0 });
  });

  it('lists the namespaces whose prefix starts with a digit', async () => {
    const res = await search('namespaces', 'findByPrefixStartsWithNumbers?sort=prefix,asc');
    expect(prefixesOf(res.body)).toEqual(['3dmet', '4dn']);
    expect(res.body.page.totalElements).toBe(2);
  });

  it('pages the namespaces whose prefix contains a text, case-sensitively', async () => {
    const res = await search('namespaces', 'findByPrefixContaining?content=bi&sort=prefix');
    expect(prefixesOf(res.body)).toEqual(['chebi', 'ncbigene']);
    const upper = await search('namespaces', 'findByPrefixContaining?content=BI');
    expect(upper.body._embedded.namespaces).toEqual([]);
    const paged = await search('namespaces', 'findByPrefixContaining?content=e&size=2&page=1&sort=prefix,desc');
    expect(paged.body._links.next.href).toBe(`${API}/namespaces/search/findByPrefixContaining?content=e&page=2&size=2&sort=prefix,desc`);
  });

  it('matches %, _ and \\ in a search text literally', async () => {
    const contains = async (content: string) => prefixesOf((await search('namespaces', `findByPrefixContaining?content=${encodeURIComponent(content)}`)).body);
    expect(await contains('k_e')).toEqual(['lik_e']);
    expect(await contains('%')).toEqual(['lik%e']);
    expect(await contains('k\\e')).toEqual(['lik\\e']);
    expect(await contains('_')).toEqual(['lik_e']);
    expect(await contains('lik')).toEqual([...WILD_PREFIXES].sort());
    const starts = await search('namespaces', `findByPrefixStartsWith?prefixStart=${encodeURIComponent('lik%')}`);
    expect(prefixesOf(starts.body)).toEqual(['lik%e']);
    const names = await search('institutions', `findByNameContaining?nameContent=${encodeURIComponent('0% Institute_')}`);
    expect(names.body._embedded.institutions.map((i: { name: string }) => i.name)).toEqual(['100% Institute_A']);
  });

  it('finds a namespace by MIR id, or answers 404', async () => {
    const res = await search('namespaces', 'findByMirId?mirId=MIR:00000066');
    expect(res.body.prefix).toBe('3dmet');
    const missing = await search('namespaces', 'findByMirId?mirId=MIR:99999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(notFoundBody("Namespace with MIR id 'MIR:99999999' not found"));
  });
});

describe('resource searches', () => {
  it("lists a namespace's resources without paging", async () => {
    const res = await search('resources', 'findAllByNamespaceId?id=87');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['_embedded', '_links']);
    expect(res.body._embedded.resources.map(selfId)).toEqual(['88', '90', '92', '93', '95', '96']);
    expect(res.body._links).toEqual({ self: { href: `${API}/resources/search/findAllByNamespaceId?id=87` } });
  });

  it('answers an empty list for a namespace id that names nothing', async () => {
    for (const id of ['999999', 'abc', '-1', '']) {
      const res = await search('resources', `findAllByNamespaceId?id=${id}`);
      expect(res.status).toBe(200);
      expect(res.body._embedded).toEqual({ resources: [] });
    }
  });

  it("lists an institution's resources", async () => {
    const res = await search('resources', 'findAllByInstitutionId?id=2');
    const expected = sampleResources.filter((r) => r.institution.id === 2).map((r) => r.mirId);
    expect([...mirIdsOf(res.body)].sort()).toEqual([...expected].sort());
    expect(res.body.page).toBeUndefined();
  });

  it('finds resources by namespace id and provider code, with the namespace id named either way', async () => {
    for (const name of ['namespaceId', 'id']) {
      const res = await search('resources', `findByNamespaceIdAndProviderCode?${name}=87&providerCode=quickgo`);
      expect(res.status).toBe(200);
      expect(mirIdsOf(res.body)).toEqual(['MIR:00100012']);
    }
    const none = await search('resources', 'findByNamespaceIdAndProviderCode?namespaceId=1&providerCode=quickgo');
    expect(none.body._embedded).toEqual({ resources: [] });
  });

  it('pages the resources with a provider code, including the empty code', async () => {
    const ebi = await search('resources', 'findByProviderCode?providerCode=ebi&size=3');
    const ebiCount = sampleResources.filter((r) => r.providerCode === 'ebi').length;
    expect(ebi.body.page).toEqual({ size: 3, totalElements: ebiCount, totalPages: Math.ceil(ebiCount / 3), number: 0 });
    expect(ebi.body._links.next.href).toBe(`${API}/resources/search/findByProviderCode?providerCode=ebi&page=1&size=3`);
    const blank = await search('resources', 'findByProviderCode?providerCode=');
    expect(blank.body.page.totalElements).toBe(sampleResources.filter((r) => r.providerCode === '').length);
    const none = await search('resources', 'findByProviderCode?providerCode=nobody');
    expect(none.body).toMatchObject({ _embedded: { resources: [] }, page: { totalElements: 0 } });
  });

  it('finds a resource by MIR id, or answers 404', async () => {
    const res = await search('resources', 'findByMirId?mirId=MIR:00100095');
    expect(res.body).toMatchObject({ mirId: 'MIR:00100095', providerCode: 'nias' });
    expect(res.body._links.self.href).toBe(`${API}/resources/232`);
    const missing = await search('resources', 'findByMirId?mirId=nope');
    expect(missing.status).toBe(404);
    expect(missing.body.errorMessage).toBe("Resource with MIR id 'nope' not found");
  });
});

describe('institution searches', () => {
  it('finds an institution by exact name or ROR id, or answers 404', async () => {
    const byName = await search('institutions', 'findByName?name=INRIA');
    expect(byName.body).toMatchObject({ id: 1818, name: 'INRIA', rorId: 'https://ror.org/02kvxyf05' });
    const byRor = await search('institutions', `findByRorId?rorId=${encodeURIComponent('https://ror.org/02kvxyf05')}`);
    expect(byRor.body.id).toBe(1818);
    const lower = await search('institutions', 'findByName?name=inria');
    expect(lower.status).toBe(404);
    expect(lower.body).toEqual(notFoundBody("Institution with name 'inria' not found"));
    const noRor = await search('institutions', 'findByRorId?rorId=https://ror.org/000000000');
    expect(noRor.status).toBe(404);
  });

  it('pages institutions whose name contains a text, with the parameter named nameContent or name', async () => {
    const expected = sampleInstitutions.filter((i) => i.name.includes('Institute')).map((i) => i.id).sort((a, b) => a - b);
    const content = await search('institutions', 'findByNameContaining?nameContent=Institute&size=50');
    const name = await search('institutions', 'findByNameContaining?name=Institute&size=50');
    expect(idsOf(content.body).filter((id) => expected.includes(id)).sort((a, b) => a - b)).toEqual(expected);
    expect(idsOf(name.body)).toEqual(idsOf(content.body));
    const paged = await search('institutions', 'findByNameContaining?name=Institute&size=2');
    expect(paged.body._links.next.href).toBe(`${API}/institutions/search/findByNameContaining?name=Institute&page=1&size=2`);
  });

  it('matches name contents case-sensitively, or ignoring case with the IgnoreCase search', async () => {
    const sensitive = await search('institutions', 'findByNameContaining?nameContent=UNIVERSITY');
    expect(sensitive.body.page.totalElements).toBe(0);
    const ignoring = await search('institutions', 'findByNameContainingIgnoreCase?nameContent=UNIVERSITY&size=100');
    const expected = sampleInstitutions.filter((i) => i.name.toLowerCase().includes('university'));
    expect(ignoring.body.page.totalElements).toBe(expected.length);
    expect(idsOf(ignoring.body).sort((a, b) => a - b)).toEqual(expected.map((i) => i.id).sort((a, b) => a - b));
  });

  it('pages the institutions of a country', async () => {
    const res = await search('institutions', 'findByLocationCountryCode?countryCode=JP');
    expect(idsOf(res.body)).toEqual([15, 84, 231]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    const none = await search('institutions', 'findByLocationCountryCode?countryCode=ZZ');
    expect(none.body).toMatchObject({ _embedded: { institutions: [] }, page: { totalElements: 0 } });
  });
});

describe('location search', () => {
  it('finds a location by its exact country code, or answers 404', async () => {
    const res = await search('locations', 'findByCountryCode?countryCode=GB');
    expect(res.body).toMatchObject({ countryCode: 'GB', countryName: 'United Kingdom' });
    const lower = await search('locations', 'findByCountryCode?countryCode=gb');
    expect(lower.status).toBe(404);
    expect(lower.body).toEqual(notFoundBody("Location with country code 'gb' not found"));
  });
});

describe('search errors', () => {
  it.each([
    ['namespaces', 'findByPrefix', "'prefix'"],
    ['namespaces', 'existsNamespaceByPrefix', "'prefix'"],
    ['namespaces', 'findByPrefixStartsWith?page=1', "'prefixStart'"],
    ['namespaces', 'findByPrefixContaining?contents=x', "'content'"],
    ['namespaces', 'findByMirId', "'mirId'"],
    ['resources', 'findAllByNamespaceId', "'id'"],
    ['resources', 'findAllByInstitutionId', "'id'"],
    ['resources', 'findByNamespaceIdAndProviderCode?providerCode=ebi', "'namespaceId' (or 'id')"],
    ['resources', 'findByNamespaceIdAndProviderCode?namespaceId=1', "'providerCode'"],
    ['resources', 'findByProviderCode', "'providerCode'"],
    ['resources', 'findByMirId', "'mirId'"],
    ['institutions', 'findByName', "'name'"],
    ['institutions', 'findByRorId', "'rorId'"],
    ['institutions', 'findByNameContaining', "'nameContent' (or 'name')"],
    ['institutions', 'findByNameContainingIgnoreCase', "'nameContent' (or 'name')"],
    ['institutions', 'findByLocationCountryCode', "'countryCode'"],
    ['locations', 'findByCountryCode', "'countryCode'"],
  ])('answers 400 naming the missing parameter (%s %s)', async (collection, query, named) => {
    const res = await search(collection, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: `Required request parameter ${named} is missing`, payload: null });
  });

  it('answers 404 for a search the collection does not have', async () => {
    const res = await search('namespaces', 'findByNothing?x=1');
    expect(res.status).toBe(404);
    expect(res.body.errorMessage).toBe(`No search 'findByNothing' on namespaces; see ${API}/namespaces/search`);
  });

  it('answers values that no row could hold with no match rather than an error', async () => {
    const long = 'a'.repeat(5000);
    const cases = [
      ['namespaces', `findByPrefix?prefix=${long}`, 404],
      ['namespaces', 'findByPrefix?prefix=%00', 404],
      ['namespaces', `findByPrefixContaining?content=${long}`, 200],
      ['namespaces', 'findByPrefixStartsWith?prefixStart=a%00', 200],
      ['resources', 'findByProviderCode?providerCode=%00', 200],
      ['resources', 'findByNamespaceIdAndProviderCode?id=87&providerCode=%00', 200],
      ['institutions', 'findByNameContainingIgnoreCase?nameContent=%00', 200],
      ['institutions', `findByLocationCountryCode?countryCode=${long}`, 200],
      ['locations', 'findByCountryCode?countryCode=%00', 404],
      ['namespaces', 'existsNamespaceByPrefix?prefix=%FF%FE', 200],
    ] as const;
    for (const [collection, query, status] of cases) {
      const res = await search(collection, query);
      expect({ query, status: res.status }).toEqual({ query, status });
      expect(res.body).not.toBeNull();
    }
  });
});

describe('deep pages of a search', () => {
  const DEEP = 1050;
  const deepPrefix = (n: number) => `zdeep${String(n).padStart(4, '0')}`;

  beforeAll(async () => {
    const rows = Array.from({ length: DEEP }, (_, n) => ({
      prefix: deepPrefix(n),
      mirId: `MIR:0980${String(n).padStart(4, '0')}`,
      name: `Deep ${n}`,
      pattern: '^\\d+$',
      description: 'One of many namespaces, to page deep into a search.',
      sampleId: '1',
    }));
    await testDb.db.batchInsert('namespaces', rows, 500);
  });

  it('pages contiguously from shallow into deep pages, to the end', async () => {
    const shallow = await search('namespaces', 'findByPrefixStartsWith?prefixStart=zdeep&size=20&page=49');
    const deep = await search('namespaces', 'findByPrefixStartsWith?prefixStart=zdeep&size=20&page=50');
    expect(prefixesOf(shallow.body)).toEqual(Array.from({ length: 20 }, (_, i) => deepPrefix(980 + i)));
    expect(prefixesOf(deep.body)).toEqual(Array.from({ length: 20 }, (_, i) => deepPrefix(1000 + i)));
    expect(deep.body.page).toEqual({ size: 20, totalElements: DEEP, totalPages: 53, number: 50 });
    const last = await search('namespaces', 'findByPrefixStartsWith?prefixStart=zdeep&size=20&page=52');
    expect(prefixesOf(last.body)).toEqual(Array.from({ length: 10 }, (_, i) => deepPrefix(1040 + i)));
    expect(last.body._links.next).toBeUndefined();
  });

  it('keeps the requested order on deep pages', async () => {
    const res = await search('namespaces', 'findByPrefixContaining?content=deep&size=500&page=2&sort=prefix,desc');
    expect(prefixesOf(res.body)).toEqual(Array.from({ length: 50 }, (_, i) => deepPrefix(49 - i)));
    expect(res.body.page.totalElements).toBe(DEEP);
  });
});
