/**
 * Canonical-LUI rules as data in Postgres: the importer stores those each pattern calls for, a curator
 * replaces them (the maintenance PATCH's `luiRules`) or asks for the derived ones again (`null`), a pattern
 * edit derives them again, and a resolver on the same database follows each change like any other registry
 * change (JSON answer and browser redirect).
 */
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { deriveLuiRules } from '../../src/core/lui-rules.js';
import { importRegistry } from '../../src/importer/import-registry.js';
import { validateNamespaces } from '../../src/importer/read-dataset.js';
import { REGISTRY_URL, startBothAreas, type BothAreas } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';
import { waitFor } from '../support/wait.js';

const DRUGBANK = 330;
const checks = { urlCheck: async () => null, regexTest: regexpChecks.regexTest };

let t: BothAreas;
let app: RequestListener;
let auth: string;

beforeAll(async () => {
  t = await startBothAreas('lui_rules_curation');
  app = t.registryApp({ registration: checks }).callback();
  auth = `Bearer ${t.curatorToken}`;
}, 60_000);
afterAll(() => t.close());

const patch = (body: unknown) =>
  request(app).patch(`/restApi/namespaces/${DRUGBANK}`).set('Authorization', auth).set('Content-Type', 'application/json').send(JSON.stringify(body));
const storedRules = async () => (await t.db('namespaces').where({ id: DRUGBANK }).first('luiRules'))!.luiRules;
const resolveJson = async (path: string) => {
  const res = await t.resolver.send({ method: 'GET', path });
  return { status: res.status, body: JSON.parse(res.text) as { errorMessage: string | null; payload: Record<string, unknown> } };
};
const redirect = async (path: string) => (await t.resolver.send({ method: 'GET', path, headers: { Accept: 'text/html' } })).headers.location;

describe('canonical-LUI rules stored with the namespace', () => {
  it('are the ones the pattern calls for after the import, and the resolver follows them', async () => {
    expect(await storedRules()).toEqual(deriveLuiRules({ prefix: 'drugbank', pattern: '^DB\\d{5}$' }));
    expect(await storedRules()).toEqual({ stripPrefix: true, fold: 'upper', zeroPad: { head: 'DB', width: 5 } });

    const answer = await resolveJson('/drugbank:db1');
    expect(answer.status).toBe(200);
    expect(answer.body.payload.canonicalCompactIdentifier).toBe('drugbank:DB00001');
    expect(answer.body.payload.parsedCompactIdentifier).toMatchObject({ localId: 'DB00001', rawRequest: 'drugbank:db1' });
    expect(await redirect('/drugbank:db1')).toBe(await redirect('/drugbank:DB00001'));
    expect(await redirect('/drugbank:drugbank:DB00001')).toBe(await redirect('/drugbank:DB00001'));
    expect((await resolveJson('/drugbank:db1/')).status).toBe(400);
  });

  it("are replaced by a curator's, logged, and followed by the resolver within seconds", async () => {
    expect((await patch({ luiRules: { fold: 'upper' } })).status).toBe(204);
    expect(await storedRules()).toEqual({ fold: 'upper' });
    const logged = await t.db('curationEvents').where({ entity: 'namespace', entityId: DRUGBANK }).orderBy('id', 'desc').first();
    expect(logged).toMatchObject({ action: 'namespace.update', changes: { luiRules: { to: { fold: 'upper' } } } });

    await waitFor(async () => (await resolveJson('/drugbank:db1')).status === 400, { timeoutMs: 5000, what: 'padding no longer applied' });
    expect((await resolveJson('/drugbank:db1')).body.errorMessage).toBe(
      "Resolution request 'drugbank:db1' is NOT A NAMESPACE; For namespace 'drugbank', provided local ID 'db1' DOES NOT MATCH local IDs definition pattern '^DB\\d{5}$'",
    );
    expect((await resolveJson('/drugbank:db00001')).body.payload.canonicalCompactIdentifier).toBe('drugbank:DB00001');
  });

  it('change nothing when a curator sends the same rules again', async () => {
    const before = await t.db('curationEvents').count({ n: '*' }).first();
    expect((await patch({ luiRules: { fold: 'upper' } })).status).toBe(204);
    expect(await t.db('curationEvents').count({ n: '*' }).first()).toEqual(before);
  });

  it('are derived again when a curator sends null', async () => {
    expect((await patch({ luiRules: null })).status).toBe(204);
    expect(await storedRules()).toEqual({ stripPrefix: true, fold: 'upper', zeroPad: { head: 'DB', width: 5 } });
    await waitFor(async () => (await resolveJson('/drugbank:db1')).status === 200, { timeoutMs: 5000, what: 'padding applied again' });
  });

  it('are derived again from a new pattern', async () => {
    expect((await patch({ pattern: '^DB\\d{6}$', sampleId: 'DB000001' })).status).toBe(204);
    expect(await storedRules()).toEqual({ stripPrefix: true, fold: 'upper', zeroPad: { head: 'DB', width: 6 } });
    await waitFor(async () => (await resolveJson('/drugbank:db1')).body.payload?.canonicalCompactIdentifier === 'drugbank:DB000001', {
      timeoutMs: 5000,
      what: 'the new width applied',
    });
  });

  it.each([
    [{ luiRules: { fold: 'title' } }, `'luiRules.fold' must be "upper" or "lower"`],
    [{ luiRules: { trim: true } }, "'luiRules.trim' is not a rule (stripPrefix, luiPrefix, fold, zeroPad)"],
    [{ luiRules: 'upper' }, "'luiRules' must be an object of rules, or null"],
  ])('refuse %j with a message saying what is wrong', async (body, message) => {
    const before = await storedRules();
    const res = await patch(body);
    expect([res.status, res.body.errorMessage ?? res.body.message]).toEqual([400, message]);
    expect(await storedRules()).toEqual(before);
  });

  it('are not part of the HAL item a client reads', async () => {
    const item = await request(app).get(`/restApi/namespaces/${DRUGBANK}`);
    expect(item.status).toBe(200);
    expect(item.body).not.toHaveProperty('luiRules');
    expect(JSON.stringify(item.body)).not.toContain('zeroPad');
    expect(item.body._links.self.href).toBe(`${REGISTRY_URL}/restApi/namespaces/${DRUGBANK}`);
  });

  it("survive a re-import that leaves the pattern alone, and are derived again where it restores another", async () => {
    const INTERPRO = 48;
    const res = await request(app)
      .patch(`/restApi/namespaces/${INTERPRO}`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ luiRules: {} }));
    expect(res.status).toBe(204);
    const seed = JSON.parse(await readFile(new URL('../../seeds/sample-registry.json', import.meta.url), 'utf8')) as unknown;
    await importRegistry(t.db, validateNamespaces(seed), {});
    expect((await t.db('namespaces').where({ id: INTERPRO }).first('luiRules'))!.luiRules).toEqual({});
    // The file has drugbank's first pattern, which the test above changed.
    expect(await storedRules()).toEqual({ stripPrefix: true, fold: 'upper', zeroPad: { head: 'DB', width: 5 } });
  });
});
