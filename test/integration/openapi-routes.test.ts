/**
 * The route table against the OpenAPI documents, on both areas listening over the sample registry: every
 * route the routers register is documented; every documented path and method answers (not 404 or 405) when
 * asked with the document's own examples; the status it answers is one the document lists; and a JSON
 * answer fits the answer schema documented for it, the reference's field order included. The answer schemas
 * are thereby checked against real answers and cannot drift from them.
 */
import type Koa from 'koa';
import { AREAS, buildOpenApiDocument, SERVICE_VERSION, type Area } from '../../src/openapi/openapi-document.js';
import { startBothAreas, type BothAreas } from '../support/areas.js';
import { documentSchemas, isJsonType, operationsOf, pointerTo, type Operation } from '../support/openapi-validator.js';
import type { RawResponse, RawServer } from '../support/raw-http.js';

/**
 * Documented routes whose only answer is 404 by design: the reference's link from an institution to "its
 * resource" (never leads to one), and the OpenID Connect sign-in, which answers only when OIDC_ISSUER is
 * set (these areas have none; test/integration/curator-desk-oidc.test.ts drives it with a provider).
 */
const ALWAYS_404_HERE = new Set(['GET /restApi/institutions/{id}/resource', 'POST /curation/oidc/start', 'GET /curation/oidc/callback']);

/**
 * Registered but not documented: the browse API's fallback for unknown searches of a collection, which only
 * answers 404 in the reference's words (every real search is documented under its own path).
 */
const UNDOCUMENTED_ROUTES = new Set(['GET /restApi/{collection}/search/{name}']);

/** Every method and path the area's routers register (HEAD is each GET's), in OpenAPI's path form. */
function registeredRoutes(koa: Koa): Set<string> {
  const routes = new Set<string>();
  for (const middleware of koa.middleware as unknown as { router?: { stack: { methods: string[]; path: string | RegExp }[] } }[]) {
    for (const layer of middleware.router?.stack ?? []) {
      if (typeof layer.path !== 'string') continue;
      const path = layer.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\{\*([A-Za-z0-9_]+)\}/g, '{$1}');
      for (const method of layer.methods) if (method !== 'HEAD') routes.add(`${method} ${path}`);
    }
  }
  return routes;
}

type Document = ReturnType<typeof buildOpenApiDocument>;

let t: BothAreas;
const documents = {} as Record<Area, Document>;

beforeAll(async () => {
  t = await startBothAreas('openapi_routes');
  for (const area of AREAS) {
    documents[area] = buildOpenApiDocument(area, { serverUrl: t.config[area === 'resolver' ? 'PUBLIC_RESOLVER_URL' : 'PUBLIC_REGISTRY_URL'], version: SERVICE_VERSION });
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe.each(AREAS)('the %s area', (area) => {
  it('documents every route its routers register', () => {
    const documented = new Set(operationsOf(documents[area]).map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    const koa = t[area].koa;
    const registered = registeredRoutes(koa);
    expect(registered.size).toBeGreaterThan(area === 'resolver' ? 5 : 150);
    expect([...registered].filter((route) => !documented.has(route) && !UNDOCUMENTED_ROUTES.has(route))).toEqual([]);
  });
});

// --- Asking every documented operation ------------------------------------------------------------------

interface Answer {
  route: string;
  status: number;
  problems: string[];
}

/** Path parameters the examples cannot know: the requesters' tokens the set-up's requests were given. */
const tokens = { prefix: '', resource: '' };
function pathValue(path: string, name: string, example: unknown): string {
  if (name === 'token') return path.startsWith('/resourceManagementApi/') ? tokens.resource : tokens.prefix;
  return String(example);
}

function requestOf(operation: Operation, path: string, curatorToken: string, satelliteToken: string) {
  let target = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = operation.parameters?.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(pathValue(path, name, parameter?.example));
  });
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query' && p.required);
  if (query.length) target += `?${query.map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example))}`).join('&')}`;
  const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'))?.[1];
  const pageOnly = success?.content && Object.keys(success.content).every((type) => type === 'text/html');
  const headers: Record<string, string> = { Accept: pageOnly ? 'text/html' : 'application/json, application/hal+json;q=0.9, */*;q=0.1' };
  if (operation.security.some((s) => 'curatorToken' in s)) headers.Authorization = `Bearer ${curatorToken}`;
  if (operation.security.some((s) => 'satelliteToken' in s)) headers.Authorization = `Bearer ${satelliteToken}`;
  let body: string | undefined;
  const [type, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  if (type && media) {
    headers['Content-Type'] = type;
    const example = media.example;
    if (type === 'application/x-www-form-urlencoded') body = new URLSearchParams(example as Record<string, string>).toString();
    else body = typeof example === 'string' ? example : JSON.stringify(example);
  }
  return { path: target, headers, body };
}

/** What is wrong with an answer, against the document. */
function checkAnswer(area: Area, path: string, method: string, operation: Operation, response: RawResponse): string[] {
  const given = operation.responses[String(response.status)] as (Operation['responses'][string] & { $ref?: string }) | undefined;
  if (!given) return [`${response.status} is not documented (${response.text.slice(0, 200)})`];
  // A shared answer (components.responses) is checked where it is written.
  const shared = given.$ref?.replace('#/components/responses/', '');
  const documented = shared ? (documents[area].components.responses as Record<string, typeof given>)[shared]! : given;
  const at = shared ? ['components', 'responses', shared] : ['paths', path, method, 'responses', String(response.status)];
  const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!documented.content || !isJsonType(type) || response.text === '') return [];
  const mediaType = documented.content[type] ? type : Object.keys(documented.content).find(isJsonType);
  if (!mediaType) return [`answered ${type}, documented ${Object.keys(documented.content).join(', ')}`];
  const schemas = checkers[area];
  validated[area]++;
  return schemas.problems(pointerTo(...at, 'content', mediaType, 'schema'), JSON.parse(response.text)).map((p) => `${response.status}: ${p}`);
}

const checkers = {} as Record<Area, ReturnType<typeof documentSchemas>>;
/** How many JSON answers were checked against their schemas, per area. */
const validated: Record<Area, number> = { resolver: 0, registry: 0 };

async function askAll(area: Area, server: RawServer, order: (method: string, path: string) => number): Promise<Answer[]> {
  checkers[area] ??= documentSchemas(documents[area]);
  const operations = operationsOf(documents[area]).sort((a, b) => order(a.method, a.path) - order(b.method, b.path));
  const answers: Answer[] = [];
  for (const { path, method, operation } of operations) {
    const route = `${method.toUpperCase()} ${path}`;
    await prepare[route]?.();
    const request = requestOf(operation, path, t.curatorToken, t.satelliteToken);
    const response = await server.send({ method: method.toUpperCase(), ...request });
    answers.push({ route, status: response.status, problems: checkAnswer(area, path, method, operation, response) });
  }
  return answers;
}

/** The deletion example's institution (an id the registry's sequence does not reach in a test). */
const UNUSED_INSTITUTION = 9999;

/** Set-up some operations need before their example can succeed (it may have been used up). */
const prepare: Record<string, () => Promise<void>> = {};
const freeInstitution = async () => {
  await t.db('institutions').insert({ id: UNUSED_INSTITUTION, name: 'Unused institute', homeUrl: 'https://unused.example.org', description: 'No resource uses it', locationCountryCode: 'GB' }).onConflict('id').ignore();
};
for (const method of ['GET', 'POST', 'DELETE']) prepare[`${method} /institutionManagementApi/deleteById/{id}`] = freeInstitution;

/** Reads first, then writes, the lifecycle changes (deactivations, deletions) last. */
function readsFirst(method: string, path: string): number {
  if (/ManagementApi\/(deactivate|reactivate|deleteById)/.test(path)) return 3;
  if (/\/(accept|reject)[A-Za-z]*\//.test(path)) return 2;
  return method === 'get' ? 0 : 1;
}

async function send(server: RawServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const json: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  const response = await server.send({
    method,
    path,
    headers: { Authorization: `Bearer ${t.curatorToken}`, Accept: 'application/json', ...json, ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${response.text.slice(0, 300)}`);
  return response;
}

/**
 * What the sample registry lacks for the examples: a successor, a curation warning, a contact person (an
 * accepted request's requester), and registration sessions whose events are of every type (ids as the examples give them: session 1 with
 * START 1, COMMENT 2, AMEND 3, REJECT 4; session 2 with START 5, ACCEPT 6).
 */
async function giveTheExamplesSomethingToFind(): Promise<void> {
  const registry = t.registry;
  await send(registry, 'PUT', '/restApi/namespaces/28/successor', `${t.config.PUBLIC_REGISTRY_URL}/restApi/namespaces/239\n`, { 'Content-Type': 'text/uri-list' });
  const paths = documents.registry.paths;
  const example = (path: string) => (paths[path]!.post!.requestBody as { content: Record<string, { example: Record<string, unknown> }> }).content['application/json']!.example;
  await send(registry, 'POST', '/curationApi/notifications', example('/curationApi/notifications'));
  for (const [base, submit, suffix, field] of [
    ['/prefixRegistrationApi', 'registerPrefix', 'PrefixRegistrationRequest', 'prefixRegistrationRequest'],
    ['/resourceManagementApi', 'registerResource', 'ResourceRegistrationRequest', 'resourceRegistrationRequest'],
  ] as const) {
    const request = example(`${base}/${submit}`) as { apiVersion: string; payload: Record<string, unknown> };
    const answer = JSON.parse((await send(registry, 'POST', `${base}/${submit}`, request)).text) as { payload: { token: string } };
    tokens[base === '/prefixRegistrationApi' ? 'prefix' : 'resource'] = answer.payload.token;
    await send(registry, 'POST', `${base}/comment${suffix}/1`, { apiVersion: '1.0', payload: { comment: 'A question' } });
    await send(registry, 'POST', `${base}/amend${suffix}/1`, { apiVersion: '1.0', payload: { [field]: { ...request.payload, providerName: 'Renamed provider' } } });
    await send(registry, 'POST', `${base}/reject${suffix}/1`, { apiVersion: '1.0', payload: { rejectionReason: 'No' } });
    const second = { ...request, payload: { ...request.payload, requestedPrefix: 'examplerecordstwo', providerCode: 'exampletwo' } };
    await send(registry, 'POST', `${base}/${submit}`, second);
    await send(registry, 'POST', `${base}/accept${suffix}/2`, { apiVersion: '1.0', payload: { acceptanceReason: 'Yes' } });
  }
  // The first acceptance made its requester person 1, the contact the examples ask for.
  await t.db('namespaces').where({ id: 28 }).update({ contactPersonId: 1 });
  await t.db('resources').where({ id: 29 }).update({ contactPersonId: 1 });
}

describe('asking every documented operation with its examples', () => {
  const answers = {} as Record<Area, Answer[]>;

  beforeAll(async () => {
    await giveTheExamplesSomethingToFind();
    for (const area of AREAS) answers[area] = await askAll(area, t[area], readsFirst);
  }, 180_000);

  it.each(AREAS)('every documented path and method of the %s area answers (not 404 or 405)', (area) => {
    const unanswered = answers[area].filter((a) => (a.status === 404 || a.status === 405) !== ALWAYS_404_HERE.has(a.route));
    expect(unanswered.map(({ route, status }) => `${route} -> ${status}`)).toEqual([]);
    expect(answers[area].length).toBe(operationsOf(documents[area]).length);
  });

  it.each(AREAS)('the %s area answers with documented statuses and bodies that fit the answer schemas', (area) => {
    expect(answers[area].flatMap((a) => a.problems.map((p) => `${a.route}: ${p}`))).toEqual([]);
    expect(validated[area]).toBeGreaterThanOrEqual(area === 'resolver' ? 10 : 150);
  });
});

describe('our additions to the resolution payload', () => {
  it('a local id resolved in its canonical form carries canonicalCompactIdentifier, after the reference\'s fields, as documented', async () => {
    const schemas = (checkers.resolver ??= documentSchemas(documents.resolver));
    // GO's local ids embed the prefix in capitals (GO:0006915): the lower-case spelling is not canonical.
    const answer = await t.resolver.send({ method: 'GET', path: '/go:go:0006915', headers: { Accept: 'application/json' } });
    const body = JSON.parse(answer.text) as { payload: Record<string, unknown> };
    expect({ status: answer.status, keys: Object.keys(body.payload) }).toEqual({ status: 200, keys: ['resolvedResources', 'parsedCompactIdentifier', 'canonicalCompactIdentifier'] });
    expect(schemas.problems(pointerTo('paths', '/{compactId}', 'get', 'responses', '200', 'content', 'application/json', 'schema'), body)).toEqual([]);
  });
});
