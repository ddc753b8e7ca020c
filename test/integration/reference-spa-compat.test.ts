/**
 * The reference's registry web app (the React + Redux single-page app of identifiers.org), unmodified and
 * pointed at our registry, still renders a namespace page (issue 13), and browses and suggests through our
 * EBI Search answer. Its `config.registryApi` comes from the page's `configApiRegistryUrl` (a deployment
 * setting): PUBLIC_REGISTRY_URL here. Its `ebiSearchDomainEndpoint` is written into site/src/config/Config.js
 * (https://www.ebi.ac.uk/ebisearch/ws/rest/identifiers_registry): unmodified, the app browses EBI's index of
 * the registry's export (/registryInsightApi/getEbiSearchDataset); pointed at our
 * /ebisearch/ws/rest/identifiers_registry, it browses ours. No browser runs the app here: this test replays
 * the requests the app's code sends, in its order, following the hrefs of the answers as it does, and checks
 * that every field the app reads is there with the type its code needs (a string it calls .trim() or
 * .replace() on, a date it formats, a link it follows) and that what it would show for sample namespaces is
 * right.
 *
 * What the app does, read from its source (repository identifiers-org/monorepo, newest stored versions):
 * - react/registry/site/src/index.js: at start (besides Keycloak and Matomo, not the registry's),
 *   `GET /restApi/locations?size=1000` and `GET /restApi/institutions?size=1000`
 *   (react/registry/site/src/actions/LocationList.js, InstitutionList.js:
 *   `_embedded.<rel>[]`, each `_links.self.href`, `countryName` / `name`, `homeUrl`, `description`), and on a
 *   /registry/{prefix} path `GET /schemaOrgApi/getMetadataForNamespacePrefix/{prefix}`
 *   (site/src/actions/SchemaOrgMetadata.js, site/src/config/Config.js for the endpoint names).
 * - site/src/components/pages/NamespaceDetailsPage.js: on mount getNamespaceFromRegistry, then
 *   getResourcesFromRegistry, then getStatisticsFromRegistry; the namespace id is
 *   `_links.self.href.split('/').pop()`; `GET /schemaOrgApi/getMetadataForNamespace/{id}` unless the
 *   metadata already names the namespace; renders name, description, pattern, namespaceEmbeddedInLui (the
 *   "effective prefix" cut from the pattern), mirId, prefix, sampleId, the deprecation fields and successor,
 *   stats.nb_visits / nb_uniq_visitors, and the resources sorted (official first, deprecated last,
 *   CURATOR_REVIEW last, then by providerCode).
 * - site/src/actions/NamespaceList.js: `GET /restApi/namespaces/search/findByPrefix?prefix={prefix}`; when
 *   `deprecated` and `_links.successor` exists, GET that href and, if ok, its `prefix`;
 *   `GET /restApi/resources/search/findAllByNamespaceId?id={id}`, `_embedded.resources[]`, each resource's
 *   `_links.self/institution/location.href`, the last two followed (site/src/utils/fetchAndAdd.js: a non-ok
 *   answer becomes undefined, which the resource row then dereferences); `GET /statistics/namespace/{prefix}`,
 *   status 200 → `payload`, anything else → "Statistics deactivated".
 * - react/registry/site/src/components/NamespaceDetailsPage/ResourceItem.js: providerCode (`.trim()`
 *   unless null), mirId, official, deprecated, deprecationDate (formatted), name, description, urlPattern
 *   (`.replace('{$id}', sampleId)`), resourceHomeUrl, protectedUrls, authHelpUrl, authHelpDescription,
 *   renderProtectedLanding, the deprecation fields, `location.countryName`, `location._links.self.href`,
 *   `institution.name`, `institution.rorId`, `institution._links.self.href`.
 * - site/src/actions/NamespacePatch.js: a curator's successor change is a PATCH of the namespace (its JSON
 *   as read, `resources` and `_links` taken out, `stats` left in), findByPrefix of the successor, and a PUT
 *   of its self href to `/restApi/namespaces/{id}/successor` as text/uri-list.
 * - react/registry/site/src/components/common/EbiSearchService.js (parameters `fields`, `size`, `query`,
 *   `format=JSON` and the caller's options, in that order; fields read from `entries[].fields`, one-element
 *   arrays unwrapped; `hitCount`), used by react/registry/site/src/components/BrowseRegistryPage/NamespaceList.js
 *   (`fields=name,prefix,description`, `start`, `size=20`, the query Lucene-escaped, `*:*` when empty;
 *   site/src/components/BrowseRegistryPage/NamespaceItem.js shows name, prefix, description) and by
 *   react/registry/site/src/components/HomePage/SearchSuggestions.js (`fields=name,prefix,lui_pattern,sample_id`,
 *   size 100, the typed text as it is, the first 10 shown, the one whose prefix is the typed prefix selected).
 *
 * The browser's fetch() sends its default Accept (any type) and, the app being on another origin, an Origin
 * header; the answers must let it read them (CORS).
 */
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { REGISTRY_URL, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { acceptingChecks } from '../support/stand-in-checks.js';

const SPA_ORIGIN = 'https://registry-spa.example.org';
const CURATOR_TOKEN = 'spa-compat-curator-token-0123456789abcdef';
// The app's config: config.registryApi, ebiSearchDomainEndpoint, ebiSearchResponseSize, suggestionQuerySize.
const REGISTRY_API = REGISTRY_URL;
const EBI_SEARCH = `${REGISTRY_URL}/ebisearch/ws/rest/identifiers_registry`;
const EBI_SEARCH_SIZE = 100;
const SUGGESTIONS_SHOWN = 10;
const SATELLITE_URL = 'https://identifiers.org';

let t: RegistryUnderTest;
let app: RequestListener;
/** Every request the replayed app sent, `<status> <path>`, in order. */
let sent: string[] = [];

beforeAll(async () => {
  t = await startRegistry('reference_spa_compat', {
    registration: acceptingChecks,
    env: { CURATOR_TOKEN, CURATION_CORS_ORIGINS: SPA_ORIGIN },
  });
  app = t.app;
}, 60_000);
afterAll(() => t.close());
beforeEach(() => {
  sent = [];
});

// ---------------------------------------------------------------------------------------------------------
// The browser under the app: fetch() and what the app's code needs of a value.
// ---------------------------------------------------------------------------------------------------------

interface FetchAnswer {
  ok: boolean;
  status: number;
  json: () => unknown;
}

/** The path on the app under test of an absolute URL the app built or took from an href. */
function pathOn(url: string): string {
  expect(url.startsWith(`${REGISTRY_URL}/`)).toBe(true);
  return url.slice(REGISTRY_URL.length);
}

/**
 * The app's `fetch(url[, init])`, as a browser sends it from the app's origin: the browser's default Accept
 * and the Origin header. A cross-origin answer without Access-Control-Allow-Origin is unreadable to the app
 * (fetch rejects), so every answer must carry it, error answers included.
 */
async function spaFetch(url: string, init: { method?: 'GET' | 'PATCH' | 'PUT'; headers?: Record<string, string>; body?: string } = {}): Promise<FetchAnswer> {
  const path = pathOn(url);
  const method = init.method ?? 'GET';
  let req = method === 'GET' ? request(app).get(path) : method === 'PATCH' ? request(app).patch(path) : request(app).put(path);
  req = req.set('Accept', '*/*').set('Origin', SPA_ORIGIN);
  for (const [name, value] of Object.entries(init.headers ?? {})) req = req.set(name, value);
  const res = await (init.body === undefined ? req : req.send(init.body));
  sent.push(`${res.status} ${method === 'GET' ? '' : `${method} `}${path}`);
  expect([path, res.headers['access-control-allow-origin']]).toEqual([path, expect.stringMatching(/^(\*|https:\/\/registry-spa\.example\.org)$/)]);
  // response.json() reads the body whatever the content type says.
  return { ok: res.status >= 200 && res.status < 300, status: res.status, json: () => JSON.parse(res.text) as unknown };
}

/** Non-GET requests with custom headers are preflighted by the browser first. */
async function preflight(url: string, method: string, headers: string): Promise<void> {
  const res = await request(app)
    .options(pathOn(url))
    .set('Origin', SPA_ORIGIN)
    .set('Access-Control-Request-Method', method)
    .set('Access-Control-Request-Headers', headers);
  expect(res.status).toBe(204);
  expect(res.headers['access-control-allow-origin']).toBe(SPA_ORIGIN);
  expect(res.headers['access-control-allow-methods']).toContain(method);
  for (const header of headers.split(',')) expect(res.headers['access-control-allow-headers']?.toLowerCase()).toContain(header.trim().toLowerCase());
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app reads untyped JSON; the checks below type it
type Json = any;

/**
 * What the app's code needs of a value: `string` (it shows it, or calls a string method on it), `boolean`
 * (a flag it tests or subtracts for sorting), `number`, `date` (a string `new Date()` parses: a formatter
 * throws on an invalid date), `null` (written out as null: the app tests it for truthiness).
 */
type Need = 'string' | 'boolean' | 'number' | 'date' | 'null';

function meets(need: Need, value: unknown): boolean {
  switch (need) {
    case 'null':
      return value === null;
    case 'date':
      return typeof value === 'string' && !Number.isNaN(new Date(value).getTime());
    default:
      return typeof value === need;
  }
}

/** Every `path: 'need|need'` of `reads` holds on `value`; one failure lists them all. */
function expectReads(what: string, value: unknown, reads: Record<string, string>): void {
  const wrong: string[] = [];
  for (const [path, needs] of Object.entries(reads)) {
    const found = path.split('.').reduce<unknown>((o, key) => (o === null || o === undefined ? undefined : (o as Record<string, unknown>)[key]), value);
    if (!needs.split('|').some((need) => meets(need as Need, found))) wrong.push(`${what}.${path}: needs ${needs}, got ${JSON.stringify(found)}`);
  }
  expect(wrong).toEqual([]);
}

const NAMESPACE_READS = {
  prefix: 'string',
  name: 'string',
  description: 'string',
  pattern: 'string',
  namespaceEmbeddedInLui: 'boolean',
  mirId: 'string',
  sampleId: 'string',
  deprecated: 'boolean',
  deprecationDate: 'date|null',
  deprecationOfflineDate: 'date|null',
  deprecationStatement: 'string|null',
  infoOnPostmortemAccess: 'string|null',
  renderDeprecatedLanding: 'boolean',
  '_links.self.href': 'string',
};
const RESOURCE_READS = {
  providerCode: 'string|null',
  mirId: 'string',
  official: 'boolean',
  deprecated: 'boolean',
  deprecationDate: 'date|null',
  deprecationOfflineDate: 'date|null',
  deprecationStatement: 'string|null',
  renderDeprecatedLanding: 'boolean',
  name: 'string',
  description: 'string',
  urlPattern: 'string',
  resourceHomeUrl: 'string',
  protectedUrls: 'boolean',
  authHelpUrl: 'string|null',
  authHelpDescription: 'string|null',
  renderProtectedLanding: 'boolean',
  sampleId: 'string',
  '_links.self.href': 'string',
  '_links.institution.href': 'string',
  '_links.location.href': 'string',
};
const INSTITUTION_READS = { name: 'string', rorId: 'string|null', '_links.self.href': 'string' };
const LOCATION_READS = { countryName: 'string', '_links.self.href': 'string' };
const lastSegment = (href: string) => href.split('/').pop()!;

// ---------------------------------------------------------------------------------------------------------
// The app's actions, replayed: the same requests in the same order, the same reads of the answers.
// ---------------------------------------------------------------------------------------------------------

/** index.js at start on /registry/{prefix}: the location and institution lists, the schema.org metadata by prefix. */
async function appStart(prefix: string) {
  const locations = (await spaFetch(`${REGISTRY_API}/restApi/locations?size=1000`)).json() as Json;
  const institutions = (await spaFetch(`${REGISTRY_API}/restApi/institutions?size=1000`)).json() as Json;
  const schemaOrg = (await spaFetch(`${REGISTRY_API}/schemaOrgApi/getMetadataForNamespacePrefix/${prefix}`)).json() as Json;
  return { locations: locations._embedded.locations as Json[], institutions: institutions._embedded.institutions as Json[], schemaOrg };
}

/** NamespaceList.js getNamespaceFromRegistry: the namespace by prefix, and its successor's prefix when deprecated. */
async function getNamespaceFromRegistry(prefix: string): Promise<Json> {
  const data = (await spaFetch(`${REGISTRY_API}/restApi/namespaces/search/findByPrefix?prefix=${prefix}`)).json() as Json;
  if (data.deprecated && data._links.successor !== undefined) {
    const succResponse = await spaFetch(data._links.successor.href);
    if (succResponse.ok) data.successor = (succResponse.json() as Json).prefix;
  }
  return data;
}

/** NamespaceList.js getResourcesFromRegistry, with fetchAndAdd following each resource's institution and location. */
async function getResourcesFromRegistry(namespace: Json): Promise<Json[]> {
  const data = (await spaFetch(`${REGISTRY_API}/restApi/resources/search/findAllByNamespaceId?id=${lastSegment(namespace._links.self.href)}`)).json() as Json;
  const resources: Json[] = [];
  for (const resource of data._embedded.resources as Json[]) {
    expectReads(`resource ${resource.mirId}`, resource, RESOURCE_READS);
    const { _links, ...newResource } = resource;
    newResource.id = lastSegment(_links.self.href);
    for (const name of ['institution', 'location']) {
      const answer = await spaFetch(_links[name].href);
      newResource[name] = answer.ok ? answer.json() : undefined;
    }
    resources.push(newResource);
  }
  return resources;
}

/** NamespaceList.js getStatisticsFromRegistry: the envelope's payload on a 200, null (shown as deactivated) otherwise. */
async function getStatisticsFromRegistry(namespace: Json): Promise<Json> {
  const response = await spaFetch(`${REGISTRY_API}/statistics/namespace/${namespace.prefix}`);
  return response.status === 200 ? (response.json() as Json).payload : null;
}

/** The resources in the order the page lists them. */
function pageOrder(resources: Json[]): Json[] {
  const reviewLast = (r: Json) => (r.providerCode === 'CURATOR_REVIEW' ? 1 : 0);
  return [...resources].sort(
    (a, b) =>
      Number(b.official) - Number(a.official) ||
      Number(a.deprecated) - Number(b.deprecated) ||
      reviewLast(a) - reviewLast(b) ||
      (a.providerCode > b.providerCode ? 1 : a.providerCode < b.providerCode ? -1 : 0),
  );
}

/** The prefix the page writes: the pattern's own spelling when the prefix is embedded in the LUI and spelled alike. */
function effectivePrefix(namespace: Json): string {
  if (!namespace.namespaceEmbeddedInLui) return namespace.prefix;
  const pattern = namespace.pattern as string;
  const fromPattern = pattern.slice(pattern.startsWith('^') ? 1 : 0, pattern.indexOf(':'));
  return fromPattern.toLowerCase() === namespace.prefix ? fromPattern : namespace.prefix;
}

/** What a visitor reads on the page, from the state the app holds after mounting it. */
function renderedPage(namespace: Json) {
  const prefix = effectivePrefix(namespace);
  return {
    title: namespace.name,
    description: namespace.description,
    pattern: namespace.pattern,
    embedded: namespace.namespaceEmbeddedInLui ? 'Yes' : 'No',
    mirId: namespace.mirId,
    prefix,
    sampleUrl: `${SATELLITE_URL}/${prefix}:${namespace.sampleId}`,
    sampleCompactIdentifier: `${prefix}:${namespace.sampleId}`,
    deactivation: namespace.deprecated
      ? {
          date: new Date(namespace.deprecationDate).toISOString().slice(0, 10),
          offline: namespace.deprecationOfflineDate ? new Date(namespace.deprecationOfflineDate).toISOString().slice(0, 10) : 'Unknown',
          statement: namespace.deprecationStatement ? namespace.deprecationStatement : 'Not provided',
          successor: namespace.successor ? `/registry/${namespace.successor}` : 'Not available',
        }
      : null,
    usage: namespace.stats === null ? 'Statistics deactivated' : { visits: namespace.stats.nb_visits, visitors: namespace.stats.nb_uniq_visitors },
    resources: pageOrder(namespace.resources).map((r: Json) => ({
      providerCode: r.providerCode === null || r.providerCode.trim() === '' || r.providerCode === 'CURATOR_REVIEW' ? 'Empty provider code' : r.providerCode,
      mirId: r.mirId,
      primary: r.official ? 'Primary' : '',
      deactivated: r.deprecated ? new Date(r.deprecationDate).toISOString().slice(0, 10) : null,
      name: r.name,
      urlPattern: r.urlPattern,
      homeUrl: r.resourceHomeUrl,
      sampleLink: r.urlPattern.replace('{$id}', r.sampleId),
      location: r.location.countryName,
      institution: r.institution.name,
      rorId: r.institution.rorId ? r.institution.rorId : 'Unknown',
    })),
  };
}

/** A visit of /registry/{prefix}: the app's start, then NamespaceDetailsPage's componentDidMount. */
async function visitNamespacePage(prefix: string) {
  const start = await appStart(prefix);
  const namespace = await getNamespaceFromRegistry(prefix);
  expectReads(`namespace ${prefix}`, namespace, NAMESPACE_READS);
  namespace.resources = await getResourcesFromRegistry(namespace);
  namespace.stats = await getStatisticsFromRegistry(namespace);
  const namespaceId = lastSegment(namespace._links.self.href);
  let schemaOrg = start.schemaOrg;
  if (!schemaOrg.dataset || schemaOrg.dataset.name !== namespace.name) {
    schemaOrg = (await spaFetch(`${REGISTRY_API}/schemaOrgApi/getMetadataForNamespace/${namespaceId}`)).json();
  }
  for (const resource of namespace.resources as Json[]) {
    expectReads(`institution of ${resource.mirId}`, resource.institution, INSTITUTION_READS);
    expectReads(`location of ${resource.mirId}`, resource.location, LOCATION_READS);
  }
  return { start, namespace, namespaceId, schemaOrg, page: renderedPage(namespace) };
}

/** EbiSearchService's query: its parameters in its order, the callers' options over them. */
async function queryEbiSearch(query: string, opts: Record<string, string>): Promise<[number, Json[]]> {
  const params = new URLSearchParams({ fields: 'prefix, name', size: String(EBI_SEARCH_SIZE), query, format: 'JSON', ...opts });
  const json = (await spaFetch(`${EBI_SEARCH}?${params.toString()}`)).json() as Json;
  const entries = (json.entries ?? []) as Json[];
  for (const entry of entries) {
    for (const [field, value] of Object.entries(entry.fields as Record<string, unknown>)) {
      expect([field, Array.isArray(value) && value.length === 1 && typeof value[0] === 'string']).toEqual([field, true]);
    }
  }
  const namespaces = entries.map((e) => Object.fromEntries(Object.entries(e.fields as Record<string, unknown[]>).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  return [json.hitCount || 0, namespaces];
}

/** The browse page's Lucene escaping of the search box (`*:*` passes as it is). */
function luceneEscaped(query: string): string {
  return query === '*:*' ? query : query.replace(/[\\+\-&!(){}[\]^~*?:/|]/g, (c) => `\\${c}`);
}

/** BrowseRegistryPage/NamespaceList.js updateNamespaceList: one page of the browse table. */
async function browsePage(searchBox: string, page: number, size = 20) {
  const [hitCount, namespaces] = await queryEbiSearch(luceneEscaped(searchBox || '*:*'), {
    fields: 'name,prefix,description',
    start: String(page * size),
    size: String(size),
  });
  return { totalElements: hitCount, totalPages: Math.ceil(hitCount / size), rows: namespaces.map((n) => ({ name: n.name, prefix: n.prefix, description: n.description })) };
}

/** HomePage/SearchSuggestions.js: the suggestions under the home search box for the typed text. */
async function homeSuggestions(typed: string) {
  const [, namespaces] = await queryEbiSearch(typed, { fields: 'name,prefix,lui_pattern,sample_id' });
  return namespaces.slice(0, SUGGESTIONS_SHOWN);
}

// ---------------------------------------------------------------------------------------------------------

describe('the reference web app renders a namespace page from our HAL API', () => {
  it('ChEBI: the request sequence, every field read, and the page as a visitor reads it', async () => {
    const { start, namespace, namespaceId, schemaOrg, page } = await visitNamespacePage('chebi');

    expect(sent).toEqual([
      '200 /restApi/locations?size=1000',
      '200 /restApi/institutions?size=1000',
      '200 /schemaOrgApi/getMetadataForNamespacePrefix/chebi',
      '200 /restApi/namespaces/search/findByPrefix?prefix=chebi',
      '200 /restApi/resources/search/findAllByNamespaceId?id=1',
      // The association links of each resource (registry-behaviour.md §1.3), followed as given.
      '200 /restApi/resources/3/institution',
      '200 /restApi/resources/3/location',
      '200 /restApi/resources/4/institution',
      '200 /restApi/resources/4/location',
      '200 /restApi/resources/6/institution',
      '200 /restApi/resources/6/location',
      '200 /statistics/namespace/chebi',
    ]);
    expect(namespaceId).toBe('1');
    // The metadata by prefix already names ChEBI, so the app does not ask for it by id.
    expect(schemaOrg.dataset.name).toBe('ChEBI');

    // The lists the curator's dropdowns are built from: every location and institution, each with its self href.
    expect(start.locations.length).toBe(Number((await t.db('locations').count({ n: '*' }))[0]!.n));
    expect(start.institutions.length).toBe(Number((await t.db('institutions').count({ n: '*' }))[0]!.n));
    for (const location of start.locations) expectReads('listed location', location, LOCATION_READS);
    for (const institution of start.institutions) {
      expectReads('listed institution', institution, { '_links.self.href': 'string', name: 'string', homeUrl: 'string|null', description: 'string|null' });
    }
    expect(start.locations.map((l: Json) => lastSegment(l._links.self.href))).toContain('GB');

    expect(namespace.deprecated).toBe(false);
    expect(page).toEqual({
      title: 'ChEBI',
      description: "Chemical Entities of Biological Interest (ChEBI) is a freely available dictionary of molecular entities focused on 'small' chemical compounds.",
      pattern: '^CHEBI:\\d+$',
      embedded: 'Yes',
      mirId: 'MIR:00000002',
      prefix: 'CHEBI',
      sampleUrl: 'https://identifiers.org/CHEBI:36927',
      sampleCompactIdentifier: 'CHEBI:36927',
      deactivation: null,
      usage: { visits: expect.any(Number), visitors: expect.any(Number) },
      resources: [
        {
          providerCode: 'ebi',
          mirId: 'MIR:00100009',
          primary: 'Primary',
          deactivated: null,
          name: 'ChEBI (Chemical Entities of Biological Interest)',
          urlPattern: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}',
          homeUrl: 'https://www.ebi.ac.uk/chebi/',
          sampleLink: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927',
          location: 'United Kingdom',
          institution: 'European Bioinformatics Institute',
          rorId: 'https://ror.org/02catss52',
        },
        {
          providerCode: 'bptl',
          mirId: 'MIR:00100565',
          primary: '',
          deactivated: null,
          name: 'ChEBI through BioPortal',
          urlPattern: 'http://purl.bioontology.org/ontology/CHEBI/CHEBI:{$id}',
          homeUrl: 'http://bioportal.bioontology.org/ontologies/CHEBI',
          sampleLink: 'http://purl.bioontology.org/ontology/CHEBI/CHEBI:36927',
          location: 'United States',
          institution: 'National Center for Biomedical Ontology, Stanford',
          rorId: 'Unknown',
        },
        {
          providerCode: 'ols',
          mirId: 'MIR:00100158',
          primary: '',
          deactivated: null,
          name: 'ChEBI through OLS',
          urlPattern: 'https://www.ebi.ac.uk/ols4/ontologies/chebi/terms?obo_id=CHEBI:{$id}',
          homeUrl: 'https://www.ebi.ac.uk/ols4/ontologies/chebi',
          sampleLink: 'https://www.ebi.ac.uk/ols4/ontologies/chebi/terms?obo_id=CHEBI:36927',
          location: 'United Kingdom',
          institution: 'European Bioinformatics Institute',
          rorId: 'https://ror.org/02catss52',
        },
      ],
    });
    // The curator's edit form starts from each resource's institution and location self hrefs.
    expect(namespace.resources.map((r: Json) => [r.id, lastSegment(r.institution._links.self.href), lastSegment(r.location._links.self.href)])).toEqual([
      ['3', '2', 'GB'],
      ['4', '2', 'GB'],
      ['6', '5', 'US'],
    ]);
  });

  it('Ensembl: a deactivated resource and empty provider codes', async () => {
    const { page } = await visitNamespacePage('ensembl');
    expect(page.resources.map((r) => [r.mirId, r.providerCode, r.primary, r.deactivated, r.location])).toEqual([
      ['MIR:00100011', 'ebi', 'Primary', null, 'United Kingdom'],
      // Equal sort keys keep the order of the answer (Array.prototype.sort is stable).
      ['MIR:00100562', 'Empty provider code', '', null, 'United States'],
      ['MIR:00100563', 'Empty provider code', '', null, 'Singapore'],
      ['MIR:00100561', 'Empty provider code', '', '2024-10-23', 'United States'],
    ]);
    expect(page.prefix).toBe('ensembl');
    expect(page.sampleUrl).toBe('https://identifiers.org/ensembl:ENSG00000139618');
  });

  it('3DMET: a deactivated namespace, first without a successor, then with one set as the app sets it', async () => {
    const before = await visitNamespacePage('3dmet');
    // The successor link is always there; without a successor it answers 404 and the app shows "Not available".
    expect(sent.slice(3, 5)).toEqual(['200 /restApi/namespaces/search/findByPrefix?prefix=3dmet', '404 /restApi/namespaces/230/successor']);
    expectReads('namespace 3dmet', before.namespace, { deprecationDate: 'date', '_links.successor.href': 'string' });
    expect(before.page.deactivation).toEqual({ date: '2024-02-12', offline: 'Unknown', statement: 'Not provided', successor: 'Not available' });
    expect(before.page.title).toBe('3DMET');
    expect(before.page.sampleUrl).toBe('https://identifiers.org/3dmet:B00162');

    // NamespacePatch.js patchNamespace, as the curator's "Commit changes" sends it after typing a successor.
    const { resources: _resources, _links, ...newNamespace } = before.namespace;
    newNamespace.successor = 'chebi';
    const curator = { Authorization: `Bearer ${CURATOR_TOKEN}` };
    const id = lastSegment(_links.self.href);
    const { successor, ...patchBody } = newNamespace;
    sent = [];
    await preflight(`${REGISTRY_API}/restApi/namespaces/${id}`, 'PATCH', 'authorization,content-type');
    const patched = await spaFetch(`${REGISTRY_API}/restApi/namespaces/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', ...curator },
      body: JSON.stringify(patchBody),
    });
    expect([patched.status, patched.ok]).toEqual([200, true]);
    const found = await spaFetch(`${REGISTRY_API}/restApi/namespaces/search/findByPrefix?prefix=${successor}`, {
      headers: { 'content-type': 'application/json', ...curator },
    });
    expect(found.ok).toBe(true);
    await preflight(`${REGISTRY_API}/restApi/namespaces/${id}/successor`, 'PUT', 'authorization,content-type');
    const put = await spaFetch(`${REGISTRY_API}/restApi/namespaces/${id}/successor`, {
      method: 'PUT',
      headers: { 'content-type': 'text/uri-list', ...curator },
      body: (found.json() as Json)._links.self.href,
    });
    expect(put.ok).toBe(true);

    // The app reloads the namespace after a commit; the page now links the successor.
    sent = [];
    const after = await getNamespaceFromRegistry('3dmet');
    expect(sent).toEqual(['200 /restApi/namespaces/search/findByPrefix?prefix=3dmet', '200 /restApi/namespaces/230/successor']);
    expect(after.successor).toBe('chebi');
    const again = await visitNamespacePage('3dmet');
    expect(again.page.deactivation).toEqual({ date: '2024-02-12', offline: 'Unknown', statement: 'Not provided', successor: '/registry/chebi' });
    // Nothing else of the namespace changed by the PATCH of the fields as they were read.
    expect(again.page).toEqual({ ...before.page, deactivation: again.page.deactivation, usage: again.page.usage });
  });

  it('asks for the schema.org metadata by id when the metadata held names another namespace', async () => {
    const { namespace } = await visitNamespacePage('go');
    const byId = (await spaFetch(`${REGISTRY_API}/schemaOrgApi/getMetadataForNamespace/${lastSegment(namespace._links.self.href)}`)).json() as Json;
    expect(byId.dataset.name).toBe(namespace.name);
  });
});

describe('the reference web app browses and suggests through our EBI Search answer', () => {
  it('the browse page lists every namespace, 20 a page, with name, prefix and description', async () => {
    const total = Number((await t.db('namespaces').count({ n: '*' }))[0]!.n);
    const first = await browsePage('', 0);
    expect(sent).toEqual([`200 /ebisearch/ws/rest/identifiers_registry?fields=name%2Cprefix%2Cdescription&size=20&query=*%3A*&format=JSON&start=0`]);
    expect(first.totalElements).toBe(total);
    expect(first.totalPages).toBe(Math.ceil(total / 20));
    expect(first.rows).toHaveLength(20);
    const second = await browsePage('', 1);
    expect(second.rows).toHaveLength(total - 20);
    const all = [...first.rows, ...second.rows];
    expect(new Set(all.map((r) => r.prefix)).size).toBe(total);
    for (const row of all) expectReads(`browse row ${row.prefix}`, row, { name: 'string', prefix: 'string', description: 'string' });
    expect(all.find((r) => r.prefix === 'chebi')).toEqual({
      name: 'ChEBI',
      prefix: 'chebi',
      description: "Chemical Entities of Biological Interest (ChEBI) is a freely available dictionary of molecular entities focused on 'small' chemical compounds.",
    });
  });

  it('the browse page finds namespaces by the words typed in its search box, escaped as the app escapes them', async () => {
    const byName = await browsePage('Gene Ontology', 0);
    expect(byName.rows.map((r) => r.prefix)).toContain('go');
    const escaped = await browsePage('kegg.compound', 0);
    expect(escaped.rows[0]?.prefix).toBe('kegg.compound');
    const withColon = await browsePage('CHEBI:36927', 0);
    expect(sent.at(-1)).toContain(`query=CHEBI%5C%3A36927`);
    expect(withColon.totalElements).toBeGreaterThanOrEqual(0);
  });

  it('the home suggestions list the typed prefix with its pattern and sample, selected', async () => {
    const suggestions = await homeSuggestions('chebi');
    expect(sent).toEqual([`200 /ebisearch/ws/rest/identifiers_registry?fields=name%2Cprefix%2Clui_pattern%2Csample_id&size=100&query=chebi&format=JSON`]);
    expect(suggestions.length).toBeLessThanOrEqual(SUGGESTIONS_SHOWN);
    const selected = suggestions.findIndex((n) => n.prefix === 'chebi');
    expect(selected).toBeGreaterThanOrEqual(0);
    expect(suggestions[selected]).toEqual({ name: 'ChEBI', prefix: 'chebi', lui_pattern: '^CHEBI:\\d+$', sample_id: '36927' });
    for (const s of suggestions) expectReads(`suggestion ${s.prefix}`, s, { name: 'string', prefix: 'string', lui_pattern: 'string', sample_id: 'string' });
  });

  it('the home suggestions send a typed compact identifier unescaped, and get a well-formed answer', async () => {
    // Lucene reads `chebi:36927` as the term 36927 in a field named chebi; EBI Search knows no such field.
    // Whatever the hits, the answer must be one the service reads (hitCount, entries with one-element arrays).
    await homeSuggestions('chebi:36927');
    expect(sent).toEqual([`200 /ebisearch/ws/rest/identifiers_registry?fields=name%2Cprefix%2Clui_pattern%2Csample_id&size=100&query=chebi%3A36927&format=JSON`]);
  });

  it("reads the service's own default fields, written with a space after the comma", async () => {
    const [hitCount, namespaces] = await queryEbiSearch('taxonomy', {});
    expect(hitCount).toBeGreaterThanOrEqual(1);
    expect(namespaces[0]).toEqual({ prefix: 'taxonomy', name: 'Taxonomy' });
  });
});
