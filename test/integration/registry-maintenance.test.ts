/**
 * Registry maintenance for curators through the reference's paths (registry-behaviour.md §1.3 "Writes",
 * §5.3 "Lifecycle management" and "Curation warnings"): PATCH of namespaces, resources and institutions,
 * PUT of a successor, deactivation and reactivation, institution deletion, the curation warnings. Each
 * behind the curator token, checked with the registration rules (stand-in URL and regex checks here: the
 * real ones have tests of their own), logged with the curator in curation_events, and seen by a resolver
 * area on the same database (how soon is bench:resolver's "change visible" figure, not asserted here).
 */
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { readManifest } from '../../src/dataset/dataset-files.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { prefixRegistration, unique } from '../factories/registration.factory.js';
import { regexpChecks } from '../support/stand-in-checks.js';
import { REGISTRY_URL, startBothAreas, type BothAreas } from '../support/areas.js';
import { sendPreflight } from '../support/cors.js';
import { waitFor } from '../support/wait.js';

const API = `${REGISTRY_URL}/restApi`;
const CURATOR = 'Carla Curator';
const CURATION_ORIGIN = 'https://curation.example.org';
const LONG_TEXT = 'A description long enough for the registration rules, which want more than fifty characters.';

// Every URL answers but those on broken.example.org; patterns are JavaScript RegExps.
const checks = {
  urlCheck: async (url: string) => (url.includes('broken.example.org') ? `Status 404 NOT_FOUND is not acceptable for URL ${url}` : null),
  regexTest: regexpChecks.regexTest,
};

let t: BothAreas;
let app: RequestListener;
let auth: string;

beforeAll(async () => {
  t = await startBothAreas('registry_maintenance');
  app = t.registryApp({ registration: checks, env: { CURATOR_NAME: CURATOR, CURATION_CORS_ORIGINS: `${CURATION_ORIGIN}, https://other-desk.example.org` } }).callback();
  auth = `Bearer ${t.curatorToken}`;
}, 60_000);
afterAll(() => t.close());

const patch = (path: string, body: unknown, accept = 'application/hal+json') => {
  const req = request(app).patch(path).set('Authorization', auth).set('Content-Type', 'application/json');
  if (accept) void req.set('Accept', accept);
  return req.send(JSON.stringify(body));
};
const curatorGet = (path: string) => request(app).get(path).set('Authorization', auth);
const curatorPost = (path: string, body?: unknown) => request(app).post(path).set('Authorization', auth).send(body as object);
const events = (entity: string, entityId: number) => t.db('curationEvents').where({ entity, entityId }).orderBy('id');
const refusal = (errorMessage: string) => ({ apiVersion: '1.0', errorMessage, payload: { comment: '--- No additional information set ---' } });

describe('the curator token', () => {
  const endpoints: [string, string][] = [
    ['PATCH', '/restApi/namespaces/330'],
    ['PATCH', '/restApi/resources/332'],
    ['PATCH', '/restApi/institutions/331'],
    ['PUT', '/restApi/namespaces/330/successor'],
    ['GET', '/namespaceManagementApi/deactivateNamespace/330'],
    ['POST', '/namespaceManagementApi/reactivateNamespace/330'],
    ['GET', '/resourceManagementApi/deactivateResource/332'],
    ['POST', '/resourceManagementApi/reactivateResource/332'],
    ['GET', '/institutionManagementApi/deleteById/331'],
    ['POST', '/curationApi/notifications'],
    ['GET', '/curationApi/warningsSummary'],
  ];
  const send = (listener: RequestListener, method: string, path: string) =>
    (request(listener) as unknown as Record<string, (path: string) => request.Test>)[method.toLowerCase()]!(path);

  it('answers 401 with WWW-Authenticate without a token and 403 with a wrong one, never cached, and changes nothing', async () => {
    // Each wrong token from an address of its own: past ten, an address's wrong tokens are answered 429
    // (curator-token-throttle.test.ts).
    const proxied = t.registryApp({ registration: checks, env: { TRUST_PROXY: 'true' } }).callback();
    for (const [index, [method, path]] of endpoints.entries()) {
      const none = await send(app, method, path);
      expect([method, path, none.status, none.headers['www-authenticate'], none.headers['cache-control']]).toEqual([method, path, 401, 'Bearer realm="curation"', 'no-store']);
      const wrong = await send(proxied, method, path).set('Authorization', 'Bearer not-the-token').set('X-Forwarded-For', `192.0.2.${index + 1}`);
      expect([method, path, wrong.status, wrong.body.errorMessage]).toEqual([method, path, 403, 'The bearer token is not the curator token']);
    }
    expect(Number((await t.db('curationEvents').count({ n: '*' }).first())!.n)).toBe(0);
    expect((await t.db('namespaces').where({ id: 330 }).first('deprecated'))!.deprecated).toBe(false);
  });

  it('answers 404 on every maintenance endpoint when curation is off', async () => {
    const off = t.registryApp({ registration: checks, env: { CURATOR_TOKEN: '' } }).callback();
    for (const [method, path] of endpoints) {
      const res = await send(off, method, path).set('Authorization', auth);
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
  });
});

describe('PATCH /restApi/namespaces/{id}', () => {
  it('changes the fields given, answers the HAL item, ignores read-only fields and logs the change with the curator', async () => {
    const before = (await t.db('namespaces').where({ id: 1100 }).first())!;
    const res = await patch('/restApi/namespaces/1100', { name: 'ORCID, renamed', description: LONG_TEXT, mirId: 'MIR:99999999', created: '2000-01-01T00:00:00.000+00:00', _links: {} });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/hal\+json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ prefix: 'orcid', mirId: before.mirId, name: 'ORCID, renamed', description: LONG_TEXT });
    expect(res.body._links.self).toEqual({ href: `${API}/namespaces/1100` });
    const after = (await t.db('namespaces').where({ id: 1100 }).first())!;
    expect(after.modified.getTime()).toBeGreaterThan(before.modified.getTime());
    expect(after.created).toEqual(before.created);

    const logged = await events('namespace', 1100);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      action: 'namespace.update',
      entityLabel: 'orcid',
      actor: CURATOR,
      actorKind: 'token',
      actorSubject: null,
      changes: { name: { from: before.name, to: 'ORCID, renamed' }, description: { from: before.description, to: LONG_TEXT } },
    });
  });

  it('answers 204 without a body when the request has no Accept header, as Spring Data REST does', async () => {
    const res = await patch('/restApi/namespaces/1100', { deprecationStatement: 'Not deprecated, just a note' }, '');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await t.db('namespaces').where({ id: 1100 }).first('deprecationStatement'))!.deprecationStatement).toBe('Not deprecated, just a note');
  });

  it('logs nothing when nothing changes', async () => {
    const count = (await events('namespace', 1100)).length;
    const res = await patch('/restApi/namespaces/1100', { name: 'ORCID, renamed', unknownField: 1 });
    expect(res.status).toBe(200);
    expect(await events('namespace', 1100)).toHaveLength(count);
  });

  it.each([
    [{ description: 'Too short' }, 'Description MUST be longer than 50 characters'],
    [{ name: '   ' }, 'Name is required'],
    [{ name: null }, 'Name is required'],
    [{ prefix: 'Not A Prefix' }, 'Requested prefix can only contain lowercase characters, numbers, underscores and dots'],
    [{ prefix: 'go' }, "Prefix 'go' already exists"],
    [{ pattern: '^[A-Z]+$' }, 'Sample ID does not match ID pattern'],
    [{ sampleId: 'not-an-orcid' }, 'Sample ID does not match ID pattern'],
    [{ deprecated: 'yes' }, "'deprecated' must be true or false"],
    [{ deprecationDate: 'yesterday' }, "'deprecationDate' must be a date such as 2024-02-12T09:35:45.473+00:00, or null"],
    [{ name: 'x'.repeat(256) }, "'name' is too long (at most 255 characters)"],
    [{ successor: 'https://elsewhere.example/not/a/namespace' }, "'successor' must be the href of a namespace (.../restApi/namespaces/{id})"],
    [{ successor: `${API}/namespaces/424242` }, `'successor' names no existing namespace: ${API}/namespaces/424242`],
    [{ successor: `${API}/namespaces/1100` }, 'A namespace cannot be its own successor'],
    [['not', 'an', 'object'], 'The request body must be a JSON object of the fields to change'],
  ])('refuses %j with 400 and the rule\'s message, changing nothing', async (body, message) => {
    const before = await t.db('namespaces').where({ id: 1100 }).first();
    const count = (await events('namespace', 1100)).length;
    const res = await patch('/restApi/namespaces/1100', body);
    expect([res.status, res.body]).toEqual([400, { apiVersion: '1.0', errorMessage: message, payload: null }]);
    expect(await t.db('namespaces').where({ id: 1100 }).first()).toEqual(before);
    expect(await events('namespace', 1100)).toHaveLength(count);
  });

  it('answers 404 for an unknown namespace', async () => {
    const res = await patch('/restApi/namespaces/424242', { name: 'Nothing' });
    expect([res.status, res.body.errorMessage]).toEqual([404, "Namespace with id '424242' not found"]);
  });

  it('shows the change in the browse API at once, whose answers are cached', async () => {
    const first = await request(app).get('/restApi/namespaces/2746');
    expect(first.body.name).not.toBe('4DN, edited');
    expect((await patch('/restApi/namespaces/2746', { name: '4DN, edited' })).status).toBe(200);
    expect((await request(app).get('/restApi/namespaces/2746')).body.name).toBe('4DN, edited');
  });
});

describe('PATCH /restApi/resources/{id}', () => {
  it('takes associations as hrefs, as the reference UI sends them', async () => {
    const res = await patch('/restApi/resources/332', {
      institution: `${API}/institutions/2`,
      location: `${API}/locations/JP`,
      official: false,
      authHelpDescription: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.official).toBe(false);
    expect(await t.db('resources').where({ id: 332 }).first('institutionId', 'locationCountryCode')).toEqual({ institutionId: 2, locationCountryCode: 'JP' });
    const [event] = await events('resource', 332);
    expect(event).toMatchObject({ action: 'resource.update', entityLabel: 'MIR:00100133', actor: CURATOR });
    expect(event!.changes).toMatchObject({ institutionId: { from: 331, to: 2 }, locationCountryCode: { to: 'JP' }, official: { to: false } });
  });

  it.each([
    [{ resourceHomeUrl: 'https://broken.example.org/' }, 'Status 404 NOT_FOUND is not acceptable for URL https://broken.example.org/'],
    [{ resourceHomeUrl: 'not a url' }, "Provider Home URL 'not a url' is not a valid URL, make sure it starts with 'http://' or 'https://'"],
    [{ urlPattern: 'https://go.drugbank.com/drugs/' }, 'Provider URL Pattern must include the placeholder {$id}'],
    [{ urlPattern: 'https://broken.example.org/drugs/{$id}' }, 'Status 404 NOT_FOUND is not acceptable for URL https://broken.example.org/drugs/DB00001'],
    [{ sampleId: 'X1' }, 'Sample ID does not match ID pattern'],
    [{ description: 'short' }, 'Provider Description MUST be longer than 50 characters'],
    [{ providerCode: 'go' }, "Provider codes must be DIFFERENT from existing prefixes! Namespace 'go' exists."],
    [{ protectedUrls: true }, 'Authentication Instructions URL is required'],
    [{ location: `${API}/locations/XX` }, `'location' names no existing location: ${API}/locations/XX`],
    [{ institution: null }, "'institution' must be a text"],
  ])('refuses %j with 400 and the rule\'s message', async (body, message) => {
    const before = await t.db('resources').where({ id: 332 }).first();
    const res = await patch('/restApi/resources/332', body);
    expect([res.status, res.body.errorMessage]).toEqual([400, message]);
    expect(await t.db('resources').where({ id: 332 }).first()).toEqual(before);
  });
});

describe('PATCH /restApi/institutions/{id}', () => {
  it('changes an institution, storing a ROR id in its canonical form', async () => {
    const res = await patch('/restApi/institutions/331', { name: 'DrugBank Institute', rorId: '0160cpw27', id: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 331, name: 'DrugBank Institute', rorId: 'https://ror.org/0160cpw27' });
    expect((await events('institution', 331))[0]).toMatchObject({ action: 'institution.update', entityLabel: 'DrugBank Institute', actor: CURATOR });
  });

  it.each([
    [{ homeUrl: 'ftp://example.org/' }, 400, 'Institution Home URL must be a HTTP(S) URL'],
    [{ description: 'Short' }, 400, 'Institution Description MUST be longer than 50 characters'],
    [{ rorId: 'not-a-ror-id' }, 400, "Institution ROR ID 'not-a-ror-id' is not a ROR ID (such as https://ror.org/02catss52)"],
    [{ name: 'European Bioinformatics Institute' }, 409, "Institution name 'European Bioinformatics Institute' belongs to another institution"],
    [{ rorId: 'https://ror.org/02catss52' }, 409, "ROR ID 'https://ror.org/02catss52' belongs to another institution"],
  ])('refuses %j with %i', async (body, status, message) => {
    const res = await patch('/restApi/institutions/331', body);
    expect([res.status, res.body.errorMessage]).toEqual([status, message]);
  });
});

describe('PUT /restApi/namespaces/{id}/successor', () => {
  const put = (path: string, body: string, type = 'text/uri-list') =>
    request(app).put(path).set('Authorization', auth).set('Content-Type', type).send(body);

  it('sets the successor from a text/uri-list body and logs it', async () => {
    const res = await put('/restApi/namespaces/53/successor', `# the new home\n${API}/namespaces/330\n`);
    expect(res.status).toBe(204);
    expect((await request(app).get('/restApi/namespaces/53/successor')).body.prefix).toBe('drugbank');
    expect((await events('namespace', 53)).at(-1)).toMatchObject({ action: 'namespace.successor', changes: { successorId: { from: null, to: 330 } } });
  });

  it.each([
    ['', 'text/uri-list', 400, "Send the successor's href as the body, with Content-Type: text/uri-list (one line)"],
    [`${API}/namespaces/330\n${API}/namespaces/1`, 'text/uri-list', 400, "Send the successor's href as the body, with Content-Type: text/uri-list (one line)"],
    [`${API}/namespaces/53`, 'text/uri-list', 400, 'A namespace cannot be its own successor'],
    [`${API}/institutions/2`, 'text/uri-list', 400, "'successor' must be the href of a namespace (.../restApi/namespaces/{id})"],
    [`${API}/namespaces/330`, 'application/json', 415, "Unsupported Content-Type 'application/json'; send text/uri-list"],
  ])('refuses %j (%s) with %i', async (body, type, status, message) => {
    const res = await put('/restApi/namespaces/53/successor', body, type);
    expect([res.status, res.body.errorMessage]).toEqual([status, message]);
  });
});

describe('namespace lifecycle', () => {
  it('deactivates a namespace, refuses to do it twice, and reactivates it clearing its deprecation details', async () => {
    // Whole seconds of slack: the row is dated by the request, whose start and end the clock reads here.
    const requestedAt = Date.now() - 1000;
    const deactivated = await curatorGet('/namespaceManagementApi/deactivateNamespace/330');
    const mir = (await t.db('namespaces').where({ id: 330 }).first('mirId'))!.mirId;
    expect([deactivated.status, deactivated.body]).toEqual([
      200,
      { apiVersion: '1.0', errorMessage: null, payload: { comment: `Namespace with ID '330', MIR ID '${mir}' SUCCESSFULLY DEPRECATED` } },
    ]);
    expect(deactivated.headers['cache-control']).toBe('no-store');
    const row = (await t.db('namespaces').where({ id: 330 }).first())!;
    expect(row).toMatchObject({ deprecated: true, renderDeprecatedLanding: true });
    expect(row.deprecationDate!.getTime()).toBeGreaterThanOrEqual(requestedAt);
    expect(row.deprecationDate!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    const again = await curatorPost('/namespaceManagementApi/deactivateNamespace/330');
    expect([again.status, again.body]).toEqual([400, refusal(`Namespace with ID '330', MIR ID '${mir}' CANNOT BE DEACTIVATED, because IT ALREADY IS DEPRECATED`)]);

    await patch('/restApi/namespaces/330', { deprecationStatement: 'Moved', successor: `${API}/namespaces/1100` });
    const reactivated = await curatorPost('/namespaceManagementApi/reactivateNamespace/330');
    expect([reactivated.status, reactivated.body.payload]).toEqual([200, { comment: `Namespace with ID '330', MIR ID '${mir}' SUCCESSFULLY RE-ACTIVATED` }]);
    expect(await t.db('namespaces').where({ id: 330 }).first('deprecated', 'renderDeprecatedLanding', 'deprecationDate', 'deprecationStatement', 'successorId')).toEqual({
      deprecated: false,
      renderDeprecatedLanding: false,
      deprecationDate: null,
      deprecationStatement: null,
      successorId: null,
    });
    const active = await curatorGet('/namespaceManagementApi/reactivateNamespace/330');
    expect([active.status, active.body]).toEqual([400, refusal(`Namespace with ID '330', MIR ID '${mir}' CANNOT BE RE-ACTIVATED, because IT ALREADY IS ACTIVE`)]);
    expect((await events('namespace', 330)).map((e) => `${e.action} by ${e.actor}`)).toEqual([
      'namespace.deactivate by Carla Curator',
      'namespace.update by Carla Curator',
      'namespace.reactivate by Carla Curator',
    ]);
  });

  it.each(['424242', 'abc'])('answers 404 for the unknown namespace %s', async (id) => {
    const res = await curatorGet(`/namespaceManagementApi/deactivateNamespace/${id}`);
    expect([res.status, res.body]).toEqual([404, refusal(`Namespace with ID '${id}', NOT FOUND`)]);
  });

  it('does not change state on HEAD', async () => {
    const res = await request(app).head('/namespaceManagementApi/deactivateNamespace/1').set('Authorization', auth);
    expect(res.status).toBe(405);
    expect((await t.db('namespaces').where({ id: 1 }).first('deprecated'))!.deprecated).toBe(false);
  });
});

describe('resource lifecycle', () => {
  it('deactivates a resource keeping its URL pattern, and reactivates it at a new, checked one', async () => {
    const { mirId, urlPattern } = (await t.db('resources').where({ id: 54 }).first('mirId', 'urlPattern'))!;
    const named = `Resource with ID '54', MIR ID '${mirId}'`;
    const deactivated = await curatorGet('/resourceManagementApi/deactivateResource/54');
    expect([deactivated.status, deactivated.body.payload]).toEqual([200, { comment: `${named} SUCCESSFULY DEPRECATED, its new URL pattern is '${urlPattern}'` }]);
    expect(await t.db('resources').where({ id: 54 }).first('deprecated', 'renderDeprecatedLanding', 'urlPattern')).toEqual({ deprecated: true, renderDeprecatedLanding: true, urlPattern });
    const again = await curatorGet('/resourceManagementApi/deactivateResource/54');
    expect([again.status, again.body]).toEqual([400, refusal(`${named} CANNOT BE DEACTIVATED, because IT ALREADY IS DEPRECATED`)]);

    const envelope = (providerUrlPattern: unknown) => ({ apiVersion: '1.0', payload: { providerUrlPattern } });
    const unchecked = await curatorPost('/resourceManagementApi/reactivateResource/54', envelope('https://www.kegg.jp/entry/'));
    expect([unchecked.status, unchecked.body]).toEqual([400, refusal('Provider URL Pattern must include the placeholder {$id}')]);
    const wrongType = await curatorPost('/resourceManagementApi/reactivateResource/54', envelope(42));
    expect([wrongType.status, wrongType.body.errorMessage]).toEqual([400, "'payload.providerUrlPattern' must be a text or null"]);

    const pattern = 'https://www.kegg.jp/dbget-bin/www_bget?cpd:{$id}';
    const reactivated = await curatorPost('/resourceManagementApi/reactivateResource/54', envelope(pattern));
    expect([reactivated.status, reactivated.body.payload]).toEqual([200, { comment: `${named} SUCCESSFULLY RE-ACTIVATED, its new URL pattern is '${pattern}'` }]);
    expect(await t.db('resources').where({ id: 54 }).first('deprecated', 'renderDeprecatedLanding', 'urlPattern')).toEqual({ deprecated: false, renderDeprecatedLanding: false, urlPattern: pattern });
    const active = await curatorPost('/resourceManagementApi/reactivateResource/54', envelope(pattern));
    expect([active.status, active.body]).toEqual([400, refusal(`${named} CANNOT BE ACTIVATED, because IT ALREADY IS ACTIVE`)]);
    expect((await events('resource', 54)).map((e) => e.action)).toEqual(['resource.deactivate', 'resource.reactivate']);
  });

  it('answers 404 for an unknown resource', async () => {
    const res = await curatorPost('/resourceManagementApi/reactivateResource/424242', { apiVersion: '1.0', payload: {} });
    expect([res.status, res.body]).toEqual([404, refusal("Resource with ID '424242', NOT FOUND")]);
  });
});

describe('GET /institutionManagementApi/deleteById/{id}', () => {
  it('deletes an institution nothing uses, answering in plain text, and logs it', async () => {
    const [{ id }] = (await t.db('institutions')
      .insert({ name: 'Unused Institute', homeUrl: 'https://unused.example.org/', description: LONG_TEXT, locationCountryCode: 'FR' })
      .returning('id')) as [{ id: number }];
    const res = await curatorGet(`/institutionManagementApi/deleteById/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe(`Institution with ID '${id}', name 'Unused Institute', PERMANENTLY DELETED FROM THE REGISTRY by '${CURATOR}', additional information 'no additional information'`);
    expect(await t.db('institutions').where({ id }).first()).toBeUndefined();
    expect((await events('institution', id))[0]).toMatchObject({ action: 'institution.delete', entityLabel: 'Unused Institute', actor: CURATOR, changes: { name: { from: 'Unused Institute', to: null } } });
  });

  it('refuses to delete an institution in use, naming the resources', async () => {
    const res = await request(app).delete('/institutionManagementApi/deleteById/26').set('Authorization', auth);
    const users = (await t.db('resources').where({ institutionId: 26 }).orderBy('id').select('id')).map((r) => r.id);
    expect([res.status, res.text]).toEqual([
      400,
      `Institution with ID '26', name '${(await t.db('institutions').where({ id: 26 }).first('name'))!.name}', IS IN USE by resources with IDs [${users.join(',')}], AND CANNOT BE DELETED by '${CURATOR}', additional information 'no additional information'`,
    ]);
  });

  it('answers 404 in plain text for an unknown institution', async () => {
    const res = await curatorGet('/institutionManagementApi/deleteById/424242');
    expect([res.status, res.text]).toEqual([404, `Institution with ID '424242', NOT FOUND, on delete request by '${CURATOR}', additional information 'no additional information'`]);
  });
});

describe('curation warnings', () => {
  const notify = (payload: unknown) => curatorPost('/curationApi/notifications', { apiVersion: '1.0', payload });
  const urlWarning = { targetType: 'namespace', targetId: 87, globalId: 'url-not-ok:namespace:homeUrl:87', type: 'url-not-ok', details: { url: 'https://go.example/', error: 'timeout', 'http-status': 0 } };
  const wikidata = { targetType: 'institution', targetId: 2, globalId: 'wikidata-institution-diff:2', type: 'wikidata-institution-diff', details: { 'expected-name': 'EMBL-EBI' } };
  const lowAvailability = { targetType: 'resource', targetId: 30, globalId: 'low-availability-resource:30', type: 'low-availability-resource', details: { availability: '12' } };
  const listed = async (item: string) => (await request(app).get(`/restApi/${item}/curationWarnings`)).body._embedded.curationWarnings as Record<string, unknown>[];

  it('stores the notified warnings and lists them on their items, with self, target and events links', async () => {
    const res = await notify([urlWarning, wikidata, lowAvailability, { ...urlWarning, globalId: 'url-not-ok:namespace:homeUrl:424242', targetId: 424242 }]);
    expect([res.status, res.text]).toEqual([200, '']);
    const [warning] = await listed('namespaces/87');
    const id = (await t.db('curationWarnings').where({ globalId: urlWarning.globalId }).first('id'))!.id;
    expect(warning).toMatchObject({
      globalId: urlWarning.globalId,
      type: 'url-not-ok',
      open: true,
      latestEvent: { type: 'CREATED' },
      moreDetails: { url: 'https://go.example/', error: 'timeout', 'http-status': '0' },
      _links: { self: { href: `${API}/curationWarnings/${id}` }, target: { href: `${API}/namespaces/87` }, events: { href: `${API}/curationWarnings/${id}/events` } },
    });
    expect(Object.keys(warning!.moreDetails as object)).toEqual(['url', 'error', 'http-status']);
    expect(await listed('institutions/2')).toHaveLength(1);
    expect(await listed('resources/30')).toHaveLength(1);
    expect(await t.db('curationWarnings').where({ globalId: 'url-not-ok:namespace:homeUrl:424242' }).first()).toBeUndefined();
    expect((await curatorGet(`/restApi/curationWarnings/${id}`)).body.globalId).toBe(urlWarning.globalId);
  });

  it('summarises the open warnings by what they are about', async () => {
    const res = await curatorGet('/curationApi/warningsSummary');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.errorMessage).toBeNull();
    expect(res.body.payload.summaryEntries).toEqual([
      { targetInfo: { type: 'Institution', identifier: '2', label: 'European Bioinformatics Institute' }, failingInstitutionUrl: 0, lowAvailabilityResources: 0, hasCurationValues: false, hasPossibleWikidataError: true, allDisabled: false },
      { targetInfo: { type: 'Prefix', identifier: 'go', label: 'Gene Ontology' }, failingInstitutionUrl: 1, lowAvailabilityResources: 0, hasCurationValues: false, hasPossibleWikidataError: false, allDisabled: false },
      { targetInfo: { type: 'Prefix', identifier: 'taxonomy', label: 'Taxonomy' }, failingInstitutionUrl: 0, lowAvailabilityResources: 1, hasCurationValues: false, hasPossibleWikidataError: false, allDisabled: false },
    ]);
    expect(res.body.payload.namespaceUsage).toEqual({});
  });

  it('solves the warnings a later snapshot no longer names, and reopens them when they come back', async () => {
    await notify([wikidata, lowAvailability]);
    expect(await listed('namespaces/87')).toMatchObject([{ open: false, latestEvent: { type: 'SOLVED' } }]);
    await notify([urlWarning, wikidata, lowAvailability]);
    expect(await listed('namespaces/87')).toMatchObject([{ open: true, latestEvent: { type: 'REOPENED' } }]);
    const id = (await t.db('curationWarnings').where({ globalId: urlWarning.globalId }).first('id'))!.id;
    const history = await curatorGet(`/restApi/curationWarnings/${id}/events`);
    expect(history.body._embedded.curationWarningEvents.map((e: { type: string; actor: string }) => `${e.type} by ${e.actor}`)).toEqual([
      `CREATED by ${CURATOR}`,
      `SOLVED by ${CURATOR}`,
      `REOPENED by ${CURATOR}`,
    ]);
  });

  it('refuses an unknown target type or a payload of another shape with 400, changing nothing', async () => {
    const unknownType = await notify([{ ...urlWarning, globalId: 'x:1', targetType: 'location' }]);
    expect([unknownType.status, unknownType.body.errorMessage]).toEqual([400, "Unknown targetType 'location': one of institution, namespace, resource"]);
    const shape = await notify({ not: 'a list' });
    expect(shape.status).toBe(400);
    expect(await t.db('curationWarnings').where({ globalId: 'x:1' }).first()).toBeUndefined();
  });
});

describe('registration curation', () => {
  it('records the curator named by CURATOR_NAME on a session event too', async () => {
    const submitted = await request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration(unique('m')) });
    expect(submitted.status).toBe(200);
    const session = (await t.db('prefixRegistrationSessions').where({ token: submitted.body.payload.token }).first('id'))!;
    const comment = await curatorPost(`/prefixRegistrationApi/commentPrefixRegistrationRequest/${session.id}`, { apiVersion: '1.0', payload: { comment: 'Please add a reference' } });
    expect(comment.status).toBe(200);
    expect(await t.db('prefixRegistrationSessionEvents').where({ sessionId: session.id, eventName: 'COMMENT' }).first('actor')).toEqual({ actor: CURATOR });
  });
});

describe('what the resolver and the dataset see', () => {
  it('redirects to the new URL pattern after a PATCH', async () => {
    const redirect = async () =>
      (await t.resolver.send({ method: 'GET', path: '/orcid:0000-0002-5355-2576', headers: { Accept: 'text/html' } })).headers.location;
    expect(await redirect()).toBe('https://orcid.org/0000-0002-5355-2576');
    const res = await t.registry.send({
      method: 'PATCH',
      path: '/restApi/resources/1102',
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ urlPattern: 'https://people.orcid.example.org/record/{$id}' }),
    });
    expect(res.status).toBe(204);
    await waitFor(async () => (await redirect()) === 'https://people.orcid.example.org/record/0000-0002-5355-2576', { timeoutMs: 5000, what: 'the new URL pattern in the redirect' });
    expect((await events('resource', 1102))[0]).toMatchObject({ actor: 'curator', changes: { urlPattern: { to: 'https://people.orcid.example.org/record/{$id}' } } });
  });

  it('puts the change in the next dataset build', async () => {
    await processDatasetBuild({ db: t.db, dir: t.datasetDir }, { data: { reason: 'registry-change' } });
    const manifest = (await readManifest(t.datasetDir))!;
    const dataset = JSON.parse(await readFile(path.join(t.datasetDir, manifest.variants.plain.file), 'utf8')) as {
      payload: { namespaces: { prefix: string; name: string; resources: { urlPattern: string }[] }[] };
    };
    const orcid = dataset.payload.namespaces.find((n) => n.prefix === 'orcid');
    expect(orcid).toMatchObject({ name: 'ORCID, renamed', resources: [{ urlPattern: 'https://people.orcid.example.org/record/{$id}' }] });
  });

  it('stops resolving to a deactivated namespace\'s providers', async () => {
    expect((await curatorGet('/namespaceManagementApi/deactivateNamespace/239')).status).toBe(200);
    await waitFor(
      async () => (await t.resolver.send({ method: 'GET', path: '/ncbigene:100010', headers: { Accept: 'text/html' } })).headers.location?.includes('deactivatedLanding'),
      { timeoutMs: 5000, what: 'the deprecation landing page' },
    );
  });
});

describe('CORS', () => {
  it('lets a configured origin\'s page send the write methods with the curator token', async () => {
    for (const origin of [CURATION_ORIGIN, 'https://other-desk.example.org']) {
      const res = await sendPreflight(app, '/restApi/namespaces/1', origin, 'PATCH', 'authorization,content-type');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
      expect(res.headers['access-control-allow-methods']!.split(',')).toEqual(expect.arrayContaining(['PATCH', 'PUT', 'DELETE', 'POST']));
      expect(res.headers['access-control-allow-headers']!.toLowerCase().split(',')).toContain('authorization');
      expect(res.headers.vary).toMatch(/origin/i);
    }
  });

  it('refuses the write methods and the token to any other origin', async () => {
    for (const origin of ['https://elsewhere.example', 'https://curation.example.org.evil.example', 'http://curation.example.org']) {
      const res = await sendPreflight(app, '/restApi/namespaces/1', origin, 'PATCH', 'authorization,content-type');
      expect(res.headers['access-control-allow-methods']!.split(',')).not.toContain('PATCH');
      expect(res.headers['access-control-allow-headers']!.toLowerCase().split(',')).not.toContain('authorization');
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('refuses them to every origin when none is configured', async () => {
    const res = await sendPreflight(t.registry.koa.callback(), '/restApi/namespaces/1', CURATION_ORIGIN, 'PATCH', 'authorization');
    expect(res.headers['access-control-allow-methods']!.split(',')).not.toContain('PATCH');
  });
});
