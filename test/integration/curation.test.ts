/**
 * Curation of registration sessions behind the curator token: the open sessions and their events (HAL),
 * comment, amend (re-validated), reject and accept, for prefix and resource requests. Requests are submitted
 * through the API with the real checks (URL checks by a compiled worker process fetching a fixture server on
 * 127.0.0.1, hence URL_CHECK_ALLOW_PRIVATE_NETWORKS; npm test builds first). An accepted namespace must
 * resolve through a resolver area on the same database (without its periodic check) and be in the next
 * dataset build.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { queueNames } from '../../src/queue/queues.js';
import { readManifest } from '../../src/dataset/dataset-files.js';
import { createRegexTester, type RegexTester } from '../../src/registry/registration/regex/regex-tester.js';
import { createQueuedUrlCheck, type QueuedUrlCheck } from '../../src/registry/registration/url-check/queued-url-check.js';
import { processDatasetBuild } from '../../workers/dataset/dataset.processor.js';
import { unique } from '../factories/registration.factory.js';
import { REGISTRY_URL, startStack, type AreaStack } from '../support/areas.js';
import { startSites, type Sites } from '../support/fixture-sites.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;
const TOKEN = randomBytes(24).toString('hex');

function prefixPayload(sites: Sites, overrides: Record<string, unknown> = {}) {
  const prefix = (overrides.requestedPrefix as string | undefined) ?? unique('c');
  return {
    name: `Curated namespace ${prefix}`,
    description: 'A namespace made up for the curation tests, long enough to pass the minimum length rule.',
    requestedPrefix: prefix,
    sampleId: '4711',
    idRegexPattern: '^[0-9]+$',
    providerUrlPattern: sites.url(`/${prefix}/items/{$id}`),
    providerHomeUrl: sites.url('/home'),
    providerName: `Provider of ${prefix}`,
    providerDescription: 'The provider that serves the records of the made-up namespace of these tests.',
    providerLocation: 'de',
    providerCode: unique('p'),
    institutionName: 'Curation Test Institute',
    institutionHomeUrl: sites.url('/institution'),
    institutionDescription: 'An institution made up for the curation tests, with a description long enough.',
    institutionLocation: 'FR',
    institutionRorId: null,
    references: [],
    additionalInformation: 'Please register.',
    requester: { name: 'Carla Curated', email: 'carla@example.org' },
    namespaceEmbeddedInLui: false,
    protectedUrls: false,
    ...overrides,
  };
}

function resourcePayload(sites: Sites, overrides: Record<string, unknown> = {}) {
  const path = unique('r');
  return {
    namespacePrefix: 'ncbigene',
    providerHomeUrl: sites.url('/home'),
    providerName: `Mirror ${path}`,
    providerDescription: 'Another provider of gene records, made up for the resource registration tests.',
    providerLocation: 'JP',
    providerCode: unique('m'),
    providerUrlPattern: sites.url(`/${path}/items/{$id}`),
    sampleId: '100010',
    institutionName: 'Mirror Institute',
    institutionHomeUrl: sites.url('/institution'),
    institutionDescription: 'The institution running the mirror, made up for the resource registration tests.',
    institutionLocation: 'JP',
    requester: { name: 'Rob Resource', email: 'rob@example.org' },
    ...overrides,
  };
}

describe('curation', () => {
  let t: AreaStack;
  let sites: Sites;
  let buildDir: string;
  let regex: RegexTester;
  let checks: QueuedUrlCheck;
  let app: RequestListener;
  let resolver: RequestListener;
  let worker: Spawned;

  const count = async (table: string, where: Record<string, unknown> = {}): Promise<number> =>
    Number(((await t.db(table).where(where).count({ n: '*' }).first()) as { n: string }).n);

  const makeApp = (curatorToken: string) =>
    t.registryApp({ env: { CURATOR_TOKEN: curatorToken }, registration: { urlCheck: checks.urlCheck, regexTest: regex.regexTest } }).callback();

  /** Submits a request through the public API; resolves to its session id and token. */
  const submit = async (kind: 'prefix' | 'resource', payload: Record<string, unknown>) => {
    const endpoint = kind === 'prefix' ? '/prefixRegistrationApi/registerPrefix' : '/resourceManagementApi/registerResource';
    const res = await request(app).post(endpoint).send({ apiVersion: '1.0', payload });
    expect(res.status).toBe(200);
    const token = res.body.payload.token as string;
    const table = kind === 'prefix' ? 'prefixRegistrationSessions' : 'resourceRegistrationSessions';
    const session = (await t.db(table).where({ token }).first()) as { id: number };
    return { sessionId: session.id, token };
  };

  const operate = (kind: 'prefix' | 'resource', operation: string, sessionId: number | string, payload?: Record<string, unknown>, token = TOKEN) => {
    const path =
      kind === 'prefix'
        ? `/prefixRegistrationApi/${operation}PrefixRegistrationRequest/${sessionId}`
        : `/resourceManagementApi/${operation}ResourceRegistrationRequest/${sessionId}`;
    return request(app).post(path).set('Authorization', `Bearer ${token}`).send({ apiVersion: '1.0', payload });
  };
  const curatorGet = (url: string) => request(app).get(url).set('Authorization', `Bearer ${TOKEN}`);

  beforeAll(async () => {
    t = await startStack('curation', { env: { CURATOR_TOKEN: TOKEN } });
    sites = await startSites();
    buildDir = mkdtempSync(path.join(os.tmpdir(), 'curation-build-'));
    regex = createRegexTester();
    checks = createQueuedUrlCheck({ connection: t.redis, prefix: t.config.QUEUE_PREFIX, waitMs: 15_000, cacheSeconds: 300 });
    app = makeApp(TOKEN);
    worker = spawnWorker(t, { URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true' });
    await waitForQueueWorkers(queueNames.urlCheck, 1, { redisUrl: t.config.REDIS_URL, prefix: t.config.QUEUE_PREFIX });
    resolver = (await t.resolverApp({ checkIntervalMs: 60_000 })).koa.callback();
  }, LONG);

  afterAll(async () => {
    await stopProcess(worker);
    await checks.close();
    await regex.close();
    await sites.close();
    await t.close();
    rmSync(buildDir, { recursive: true, force: true });
  }, LONG);

  describe('the curator token', () => {
    const LIST = '/restApi/prefixRegistrationSessions/search/findByClosedFalse';

    it('answers 404 on every curation endpoint when no token is configured', async () => {
      const disabled = makeApp('');
      for (const res of [
        await request(disabled).get(LIST).set('Authorization', `Bearer ${TOKEN}`),
        await request(disabled).post('/prefixRegistrationApi/acceptPrefixRegistrationRequest/1').send({ apiVersion: '1.0', payload: {} }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: 'Curation is not enabled on this registry', payload: null });
      }
    });

    it('answers 401 without a bearer token and 403 with a wrong one, in the envelope', async () => {
      const missing = await request(app).get(LIST);
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(missing.body).toEqual({
        apiVersion: '1.0',
        errorMessage: 'Curation needs a bearer token: send Authorization: Bearer <curator token>',
        payload: null,
      });

      const wrong = await operate('prefix', 'comment', 1, {}, `${TOKEN}x`);
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({ apiVersion: '1.0', errorMessage: 'The bearer token is not the curator token', payload: null });
      const basic = await request(app).get(LIST).set('Authorization', `Basic ${Buffer.from(`curator:${TOKEN}`).toString('base64')}`);
      expect(basic.status).toBe(401);
    });

    it('never lets a curation answer into the browse cache', async () => {
      const { sessionId } = await submit('prefix', prefixPayload(sites));
      expect((await curatorGet(`/restApi/prefixRegistrationSessions/${sessionId}`)).status).toBe(200);
      const anonymous = await request(app).get(`/restApi/prefixRegistrationSessions/${sessionId}`);
      expect(anonymous.status).toBe(401);
    }, LONG);
  });

  describe('reading sessions', () => {
    it('lists open sessions as a HAL page and reads a session, its request and its events', async () => {
      const created = [];
      for (let i = 0; i < 3; i++) created.push(await submit('prefix', prefixPayload(sites)));
      const open = await count('prefixRegistrationSessions', { closed: false });

      const page = await curatorGet('/restApi/prefixRegistrationSessions/search/findByClosedFalse?size=2');

      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^application\/hal\+json/);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.body.page).toEqual({ size: 2, totalElements: open, totalPages: Math.ceil(open / 2), number: 0 });
      expect(page.body._embedded.prefixRegistrationSessions).toHaveLength(2);
      expect(page.body._links.next.href).toBe(`${REGISTRY_URL}/restApi/prefixRegistrationSessions/search/findByClosedFalse?page=1&size=2`);
      const item = page.body._embedded.prefixRegistrationSessions[0];
      expect(Object.keys(item)).toEqual(['closed', 'created', '_links']);
      expect(item.closed).toBe(false);
      expect(Object.keys(item._links)).toEqual(['self', 'prefixRegistrationSession', 'prefixRegistrationRequest']);

      const last = created[2]!;
      const session = await curatorGet(`/restApi/prefixRegistrationSessions/${last.sessionId}`);
      expect(session.body._links.self.href).toBe(`${REGISTRY_URL}/restApi/prefixRegistrationSessions/${last.sessionId}`);
      const requestHref = (session.body._links.prefixRegistrationRequest.href as string).replace(REGISTRY_URL, '');
      const current = await curatorGet(requestHref);
      expect(current.status).toBe(200);
      expect(current.body).toMatchObject({ requesterEmail: 'carla@example.org', providerLocation: 'DE', institutionLocation: 'FR', supportingReferences: [] });
      expect(Object.keys(current.body).slice(0, 3)).toEqual(['name', 'description', 'providerHomeUrl']);

      const events = await curatorGet(`/restApi/prefixRegistrationSessionEvents/search/findByPrefixRegistrationSessionId?id=${last.sessionId}`);
      expect(events.status).toBe(200);
      expect(Object.keys(events.body._embedded)).toEqual(['prefixRegistrationSessionEventStarts']);
      const start = events.body._embedded.prefixRegistrationSessionEventStarts[0];
      expect(start).toMatchObject({ eventName: 'START', actor: 'ANONYMOUS', additionalInformation: 'Source, Open API for prefix registration request submission' });
      const eventHref = (start._links.self.href as string).replace(REGISTRY_URL, '');
      expect(eventHref).toMatch(/^\/restApi\/prefixRegistrationSessionEventStarts\/\d+$/);
      expect((await curatorGet(eventHref)).body).toEqual(start);
    }, LONG);

    it('lists the session and event searches of both kinds as templated links', async () => {
      const sessions = await curatorGet('/restApi/prefixRegistrationSessions/search');
      expect(sessions.status).toBe(200);
      expect(sessions.headers['content-type']).toMatch(/^application\/hal\+json/);
      expect(sessions.body._links).toEqual({
        findByClosedFalse: { href: `${REGISTRY_URL}/restApi/prefixRegistrationSessions/search/findByClosedFalse{?page,size,sort}`, templated: true },
        self: { href: `${REGISTRY_URL}/restApi/prefixRegistrationSessions/search` },
      });
      const events = await curatorGet('/restApi/resourceRegistrationSessionEvents/search');
      expect(events.body._links.findByResourceRegistrationSessionId).toEqual({
        href: `${REGISTRY_URL}/restApi/resourceRegistrationSessionEvents/search/findByResourceRegistrationSessionId{?id}`,
        templated: true,
      });
      expect((await request(app).get('/restApi/prefixRegistrationSessions/search')).status).toBe(401);
    });

    it('answers 404 for an unknown session and 400 for a session id that is not a number', async () => {
      expect((await curatorGet('/restApi/prefixRegistrationSessions/987654')).status).toBe(404);
      expect((await curatorGet('/restApi/prefixRegistrationSessionEvents/search/findByPrefixRegistrationSessionId?id=abc')).status).toBe(400);
    });
  });

  describe('comment, amend and reject', () => {
    it('comments: a COMMENT event by the curator, shown to the requester', async () => {
      const { sessionId, token } = await submit('prefix', prefixPayload(sites));

      const res = await operate('prefix', 'comment', sessionId, { comment: 'Looks good so far', additionalInformation: 'Source: curation web interface' });

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: null, payload: { comment: null } });
      const event = await t.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'COMMENT' }).first();
      expect(event).toMatchObject({ actor: 'curator', comment: 'Looks good so far', additionalInformation: 'Source: curation web interface' });
      const status = await request(app).get(`/prefixRegistrationApi/status/${token}`);
      expect(status.body.payload.events.map((e: { eventName: string }) => e.eventName)).toEqual(['START', 'COMMENT']);
      expect(status.body.payload.events[1].comment).toBe('Looks good so far');
      expect(status.text).not.toContain('curation web interface');
    }, LONG);

    it('fills in the reference default texts', async () => {
      const { sessionId } = await submit('prefix', prefixPayload(sites));
      expect((await operate('prefix', 'comment', sessionId)).status).toBe(200);
      const event = await t.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'COMMENT' }).first();
      expect(event).toMatchObject({ comment: 'No comment provided', additionalInformation: 'No additional information specified' });
    }, LONG);

    it('amends with a request that validates: a new version becomes current', async () => {
      const original = prefixPayload(sites);
      const { sessionId } = await submit('prefix', original);
      const before = (await t.db('prefixRegistrationSessions').where({ id: sessionId }).first()) as { requestId: number };

      const res = await operate('prefix', 'amend', sessionId, {
        additionalInformation: 'Fixed the name',
        prefixRegistrationRequest: { ...original, name: 'Amended name' },
      });

      expect(res.status).toBe(200);
      const after = (await t.db('prefixRegistrationSessions').where({ id: sessionId }).first()) as { requestId: number };
      expect(after.requestId).not.toBe(before.requestId);
      expect((await t.db('prefixRegistrationRequests').where({ id: after.requestId }).first()).name).toBe('Amended name');
      const amend = await t.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'AMEND' }).first();
      expect(amend).toMatchObject({ requestId: after.requestId, actor: 'curator', additionalInformation: 'Fixed the name' });
    }, LONG);

    it('refuses an amendment that does not validate with every message, storing nothing', async () => {
      const original = prefixPayload(sites);
      const { sessionId } = await submit('prefix', original);
      const requests = await count('prefixRegistrationRequests');
      const events = await count('prefixRegistrationSessionEvents');

      const res = await operate('prefix', 'amend', sessionId, {
        prefixRegistrationRequest: { ...original, description: 'Too short', providerLocation: 'XX' },
      });

      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        apiVersion: '1.0',
        errorMessage:
          "INVALID Prefix registration request due to 'Description MUST be longer than 50 characters\nInvalid code for Provider Location, please use one of the 2 digit ISO 3166 codes'",
        payload: { comment: null },
      });
      expect(await count('prefixRegistrationRequests')).toBe(requests);
      expect(await count('prefixRegistrationSessionEvents')).toBe(events);

      const notRor = await operate('prefix', 'amend', sessionId, { prefixRegistrationRequest: { ...original, institutionRorId: 'ror.org.evil.example' } });
      expect(notRor.status).toBe(400);
      expect(notRor.body.errorMessage).toBe(
        "INVALID Prefix registration request due to 'Institution ROR ID 'ror.org.evil.example' is not a ROR ID (such as https://ror.org/02catss52)'",
      );
      expect(await count('prefixRegistrationRequests')).toBe(requests);

      const missing = await operate('prefix', 'amend', sessionId, { comment: 'no request' });
      expect(missing.status).toBe(400);
      expect(missing.body.errorMessage).toBe("'prefixRegistrationRequest' is required: the amended request");
    }, LONG);

    it('rejects: the session closes, the requester is told, and later operations answer 409', async () => {
      const { sessionId, token } = await submit('prefix', prefixPayload(sites));
      const outbox = await count('notificationOutbox');

      const res = await operate('prefix', 'reject', sessionId, { rejectionReason: 'Out of scope' });

      expect(res.status).toBe(200);
      expect(await t.db('prefixRegistrationSessions').where({ id: sessionId }).first()).toMatchObject({ closed: true });
      expect(await t.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'REJECT' }).first()).toMatchObject({
        rejectionReason: 'Out of scope',
        actor: 'curator',
      });
      expect(await count('notificationOutbox')).toBe(outbox + 1);
      const mail = await t.db('notificationOutbox').orderBy('id', 'desc').first();
      expect(mail).toMatchObject({ kind: 'prefix.reject.requester', recipient: 'carla@example.org' });
      expect(mail.body).toContain('Out of scope');
      expect((await request(app).get(`/prefixRegistrationApi/status/${token}`)).body.payload).toMatchObject({ status: 'rejected' });

      const messages: Record<string, string> = {
        comment: 'NO comment requests ACCEPTED on ALREADY CLOSED Prefix Registration Session',
        amend: 'NO amendment requests ACCEPTED on ALREADY CLOSED Prefix Registration Session',
        reject: 'NO rejection requests ACCEPTED on ALREADY CLOSED Prefix Registration Session',
        accept: 'NO acceptance requests ACCEPTED on ALREADY CLOSED Prefix Registration Session',
      };
      for (const [operation, message] of Object.entries(messages)) {
        const later = await operate('prefix', operation, sessionId, operation === 'amend' ? { prefixRegistrationRequest: prefixPayload(sites) } : {});
        expect([operation, later.status, later.body.errorMessage]).toEqual([operation, 409, message]);
      }
    }, LONG);

    it('answers 400 with the reference message for an unknown session', async () => {
      const res = await operate('prefix', 'accept', 999999);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        apiVersion: '1.0',
        errorMessage: "INVALID Prefix Registration ACCEPT Request, session with ID '999999' IS NOT VALID",
        payload: { comment: null },
      });
      const resource = await operate('resource', 'amend', 'abc', {});
      expect(resource.status).toBe(400);
      expect(resource.body.errorMessage).toBe("INVALID Resource Registration 'AMEND' request, session with ID 'abc' IS NOT VALID");
    });
  });

  describe('accept', () => {
    const highestMirNumber = async (): Promise<number> => {
      const { rows } = (await t.db.raw(
        "SELECT max(substring(mir_id FROM 5)::bigint) AS n FROM (SELECT mir_id FROM namespaces UNION ALL SELECT mir_id FROM resources) m",
      )) as { rows: { n: string }[] };
      return Number(rows[0]!.n);
    };
    const institutionOf = async (namespacePrefix: string) =>
      (await t.db('resources as r')
        .join('namespaces as n', 'n.id', 'r.namespaceId')
        .join('institutions as i', 'i.id', 'r.institutionId')
        .where('n.prefix', namespacePrefix)
        .first('i.id', 'i.name', 'i.rorId', 'i.locationCountryCode')) as { id: number; name: string; rorId: string | null; locationCountryCode: string };

    it('creates the namespace, its resource, the person and MIR ids above the highest, closes the session, resolves without the periodic check', async () => {
      const payload = prefixPayload(sites, { institutionName: 'EBI under another name', institutionRorId: '02catss52' });
      const { sessionId, token } = await submit('prefix', payload);
      const ebi = (await t.db('institutions').where({ rorId: 'https://ror.org/02catss52' }).first()) as { id: number; name: string };
      const highest = await highestMirNumber();
      const institutions = await count('institutions');
      const outbox = await count('notificationOutbox');

      const res = await operate('prefix', 'accept', sessionId, { acceptanceReason: 'Welcome', additionalInformation: 'Source: curation web interface' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: null, payload: { comment: null } });
      const prefix = payload.requestedPrefix;
      // 5 s, far below the resolver's one-minute periodic check: the registry's notification brings the new
      // namespace. How soon is bench:resolver's "change visible" figure, not asserted here.
      const resolved = await waitFor(
        async () => {
          const answer = await request(resolver).get(`/${prefix}:4711`);
          return answer.status === 200 ? answer : undefined;
        },
        { timeoutMs: 5000, what: 'the accepted namespace resolving' },
      );
      expect(resolved.body.payload.resolvedResources[0].compactIdentifierResolvedUrl).toBe(sites.url(`/${prefix}/items/4711`));

      const namespace = (await t.db('namespaces').where({ prefix }).first())!;
      expect(namespace).toMatchObject({
        mirId: `MIR:${String(highest + 2).padStart(8, '0')}`,
        name: payload.name,
        pattern: '^[0-9]+$',
        description: payload.description,
        sampleId: '4711',
        namespaceEmbeddedInLui: false,
        deprecated: false,
      });
      const resource = (await t.db('resources').where({ namespaceId: namespace.id }).first())!;
      expect(resource).toMatchObject({
        mirId: `MIR:${String(highest + 1).padStart(8, '0')}`,
        urlPattern: payload.providerUrlPattern,
        name: payload.providerName,
        description: payload.providerDescription,
        official: true,
        providerCode: payload.providerCode,
        sampleId: '4711',
        resourceHomeUrl: payload.providerHomeUrl,
        institutionId: ebi.id,
        locationCountryCode: 'DE',
        protectedUrls: false,
      });
      // Matched by ROR id: the existing institution, unchanged, and no new one.
      expect(await count('institutions')).toBe(institutions);
      expect((await t.db('institutions').where({ id: ebi.id }).first())!.name).toBe(ebi.name);
      const person = (await t.db('persons').where({ email: 'carla@example.org' }).first())!;
      expect(person).toMatchObject({ fullName: 'Carla Curated' });
      expect(namespace.contactPersonId).toBe(person.id);
      expect(resource.contactPersonId).toBe(person.id);

      expect(await t.db('prefixRegistrationSessions').where({ id: sessionId }).first()).toMatchObject({ closed: true });
      expect(await t.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'ACCEPT' }).first()).toMatchObject({
        acceptanceReason: 'Welcome',
        actor: 'curator',
      });
      expect(await count('notificationOutbox')).toBe(outbox + 1);
      expect(await t.db('notificationOutbox').orderBy('id', 'desc').first()).toMatchObject({ kind: 'prefix.accept.requester', recipient: 'carla@example.org' });
      expect((await request(app).get(`/prefixRegistrationApi/status/${token}`)).body.payload).toMatchObject({
        status: 'accepted',
        events: [{ eventName: 'START' }, { eventName: 'ACCEPT', acceptanceReason: 'Welcome' }],
      });

      await processDatasetBuild({ db: t.db, dir: buildDir }, { data: { reason: 'registry-change' } });
      const manifest = (await readManifest(buildDir))!;
      const dataset = JSON.parse(await readFile(path.join(buildDir, manifest.variants.plain.file), 'utf8')) as {
        payload: { namespaces: { prefix: string; mirId: string; resources: { mirId: string; official: boolean }[] }[] };
      };
      const built = dataset.payload.namespaces.find((n) => n.prefix === prefix);
      expect(built).toMatchObject({ mirId: namespace.mirId, resources: [{ mirId: resource.mirId, official: true }] });
    }, LONG);

    it("takes a form client's request from field-by-field validation to a resolving namespace in the dataset, all over HTTP", async () => {
      const form = prefixPayload(sites);
      const validate = (endpoint: string, payload: Record<string, unknown>) =>
        request(app).post(`/prefixRegistrationApi/${endpoint}`).send({ apiVersion: '1.0', payload });
      // The form sends what it holds so far as each field is filled in, in the order of the form; a field
      // typed wrongly first is corrected before moving on.
      const steps: [endpoint: string, field: keyof typeof form][] = [
        ['validateName', 'name'],
        ['validateDescription', 'description'],
        ['validateRequestedPrefix', 'requestedPrefix'],
        ['validateProviderUrlPattern', 'providerUrlPattern'],
        ['validateSampleId', 'sampleId'],
        ['validateIdRegexPattern', 'idRegexPattern'],
        ['validateProviderHomeUrl', 'providerHomeUrl'],
        ['validateProviderName', 'providerName'],
        ['validateProviderDescription', 'providerDescription'],
        ['validateProviderLocation', 'providerLocation'],
        ['validateProviderCode', 'providerCode'],
        ['validateInstitutionName', 'institutionName'],
        ['validateInstitutionHomeUrl', 'institutionHomeUrl'],
        ['validateInstitutionDescription', 'institutionDescription'],
        ['validateInstitutionLocation', 'institutionLocation'],
        ['validateAdditionalInformation', 'additionalInformation'],
        ['validateRequester', 'requester'],
      ];
      const sofar: Record<string, unknown> = {};
      for (const [endpoint, field] of steps) {
        if (field === 'institutionHomeUrl') {
          const typo = await validate(endpoint, { ...sofar, institutionHomeUrl: 'institution.example.org' });
          expect(typo.status).toBe(400);
          expect(typo.body.errorMessage).toBe(
            "Institution Home URL 'institution.example.org' is not a valid URL, make sure it starts with 'http://' or 'https://'",
          );
        }
        sofar[field] = form[field];
        const res = await validate(endpoint, sofar);
        expect([endpoint, res.status, res.body]).toEqual([endpoint, 200, { apiVersion: '1.0', errorMessage: null, payload: { comment: 'VALIDATION OK', token: '' } }]);
      }

      const submitted = await request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: form });
      expect(submitted.status).toBe(200);
      const token = submitted.body.payload.token as string;
      const status = await request(app).get(`/prefixRegistrationApi/status/${token}`);
      expect(status.body.payload).toMatchObject({ requestedPrefix: form.requestedPrefix, status: 'open', events: [{ eventName: 'START' }] });

      // The curator finds the request among the open sessions, as a curation client would.
      const open = await curatorGet('/restApi/prefixRegistrationSessions/search/findByClosedFalse?size=1000');
      type Listed = { _links: { self: { href: string }; prefixRegistrationRequest: { href: string } } };
      let sessionId: string | undefined;
      for (const listed of open.body._embedded.prefixRegistrationSessions as Listed[]) {
        const current = await curatorGet(listed._links.prefixRegistrationRequest.href.replace(REGISTRY_URL, ''));
        if (current.body.requestedPrefix === form.requestedPrefix) sessionId = listed._links.self.href.split('/').pop();
      }
      expect(sessionId).toBeDefined();
      expect((await operate('prefix', 'accept', sessionId!, { acceptanceReason: 'Looks right' })).status).toBe(200);

      const resolved = await waitFor(
        async () => {
          const answer = await request(resolver).get(`/${form.requestedPrefix}:4711`);
          return answer.status === 200 ? answer : undefined;
        },
        { timeoutMs: 5000, what: 'the accepted namespace resolving' },
      );
      expect(resolved.body.payload.resolvedResources[0].compactIdentifierResolvedUrl).toBe(sites.url(`/${form.requestedPrefix}/items/4711`));
      expect((await request(app).get(`/prefixRegistrationApi/status/${token}`)).body.payload.status).toBe('accepted');

      await processDatasetBuild({ db: t.db, dir: buildDir }, { data: { reason: 'registry-change' } });
      const manifest = (await readManifest(buildDir))!;
      const dataset = JSON.parse(await readFile(path.join(buildDir, manifest.variants.plain.file), 'utf8')) as {
        payload: { namespaces: { prefix: string; resources: { urlPattern: string }[] }[] };
      };
      expect(dataset.payload.namespaces.find((n) => n.prefix === form.requestedPrefix)).toMatchObject({
        resources: [{ urlPattern: form.providerUrlPattern }],
      });
    }, LONG);

    it('matches the institution by name whatever its case, and leaves it without the requested ROR id', async () => {
      const harvard = (await t.db('institutions').where({ name: 'Harvard Medical School' }).first()) as { id: number; rorId: string | null; modified: Date };
      expect(harvard.rorId).toBeNull();
      const payload = prefixPayload(sites, { institutionName: 'HARVARD medical school', institutionRorId: 'https://ror.org/03vek6s52' });
      const { sessionId } = await submit('prefix', payload);
      const persons = await count('persons');

      expect((await operate('prefix', 'accept', sessionId)).status).toBe(200);

      // A requester's ROR id never lands on an institution the registry has (the desk shows the difference).
      expect(await institutionOf(payload.requestedPrefix)).toMatchObject({ id: harvard.id, name: 'Harvard Medical School', rorId: null });
      expect((await t.db('institutions').where({ id: harvard.id }).first())!.modified).toEqual(harvard.modified);
      // The same requester: the same person.
      expect(await count('persons')).toBe(persons);
      expect(await t.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'ACCEPT' }).first()).toMatchObject({
        acceptanceReason: 'No acceptance reason provided',
      });
    }, LONG);

    it('leaves the ROR id of an institution found by name as it is when the request names another', async () => {
      const ebi = (await t.db('institutions').where({ rorId: 'https://ror.org/02catss52' }).first()) as { id: number; name: string };
      const payload = prefixPayload(sites, { institutionName: ebi.name.toUpperCase(), institutionRorId: '0zzzzzz99' });
      const { sessionId } = await submit('prefix', payload);

      expect((await operate('prefix', 'accept', sessionId)).status).toBe(200);

      expect(await institutionOf(payload.requestedPrefix)).toMatchObject({ id: ebi.id, rorId: 'https://ror.org/02catss52' });
      expect(await t.db('institutions').where({ rorId: 'https://ror.org/0zzzzzz99' }).first()).toBeUndefined();
    }, LONG);

    it('creates an institution that matches neither, with the requested ROR id and location', async () => {
      const payload = prefixPayload(sites, {
        institutionName: unique('Brand New Institute '),
        institutionRorId: '0abcdef12',
        institutionLocation: 'it',
        requester: { name: 'Nina New', email: unique('nina') + '@example.org' },
      });
      const { sessionId } = await submit('prefix', payload);
      const institutions = await count('institutions');
      const persons = await count('persons');

      expect((await operate('prefix', 'accept', sessionId)).status).toBe(200);

      expect(await count('institutions')).toBe(institutions + 1);
      expect(await count('persons')).toBe(persons + 1);
      expect(await institutionOf(payload.requestedPrefix)).toMatchObject({
        name: payload.institutionName,
        rorId: 'https://ror.org/0abcdef12',
        locationCountryCode: 'IT',
      });
    }, LONG);

    it('answers 409 and writes nothing when the prefix was taken meanwhile', async () => {
      const prefix = unique('dup');
      const first = await submit('prefix', prefixPayload(sites, { requestedPrefix: prefix }));
      const second = await submit('prefix', prefixPayload(sites, { requestedPrefix: prefix, providerCode: unique('q') }));
      expect((await operate('prefix', 'accept', first.sessionId)).status).toBe(200);
      const tables = ['namespaces', 'resources', 'institutions', 'persons', 'prefixRegistrationSessionEvents', 'notificationOutbox', 'registryChanges'];
      const before = await Promise.all(tables.map((table) => count(table)));

      const res = await operate('prefix', 'accept', second.sessionId, { acceptanceReason: 'Again' });

      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        apiVersion: '1.0',
        errorMessage: `While accepting a prefix registration request, with reason 'Again', for prefix '${prefix}', the following error occurred: 'Prefix registration request ACCEPTANCE COULD NOT BE COMPLETED for prefix '${prefix}' due to the following error 'CANNOT register namespace '${prefix}', because IT IS ALREADY REGISTERED''`,
        payload: null,
      });
      expect(await Promise.all(tables.map((table) => count(table)))).toEqual(before);
      expect(await t.db('prefixRegistrationSessions').where({ id: second.sessionId }).first()).toMatchObject({ closed: false });
    }, LONG);

    it('adds a provider to an existing namespace for a resource request, and refuses a provider code taken meanwhile', async () => {
      const code = unique('mirror');
      const payload = resourcePayload(sites, { providerCode: code });
      const first = await submit('resource', payload);
      const secondPayload = resourcePayload(sites, { providerCode: code.toUpperCase() });
      const second = await submit('resource', secondPayload);
      const ncbigene = (await t.db('namespaces').where({ prefix: 'ncbigene' }).first()) as { id: number; mirId: string };
      const resources = await count('resources', { namespaceId: ncbigene.id });
      const highest = await highestMirNumber();

      const res = await operate('resource', 'accept', first.sessionId, { acceptanceReason: 'A welcome mirror' });

      expect(res.status).toBe(200);
      expect(await count('resources', { namespaceId: ncbigene.id })).toBe(resources + 1);
      const added = await t.db('resources').where({ providerCode: code }).first();
      expect(added).toMatchObject({
        namespaceId: ncbigene.id,
        official: false,
        mirId: `MIR:${String(highest + 1).padStart(8, '0')}`,
        urlPattern: payload.providerUrlPattern,
        locationCountryCode: 'JP',
      });
      expect((await t.db('namespaces').where({ id: ncbigene.id }).first())!.mirId).toBe(ncbigene.mirId);
      expect(await t.db('resourceRegistrationSessions').where({ id: first.sessionId }).first()).toMatchObject({ closed: true });
      const status = await request(app).get(`/resourceManagementApi/status/${first.token}`);
      expect(status.body.payload).toMatchObject({ namespacePrefix: 'ncbigene', status: 'accepted' });
      const resolved = await waitFor(
        async () => {
          const answer = await request(resolver).get('/ncbigene:100010');
          const urls = (answer.body.payload?.resolvedResources ?? []).map((r: { compactIdentifierResolvedUrl: string }) => r.compactIdentifierResolvedUrl);
          return urls.includes(payload.providerUrlPattern.replace('{$id}', '100010')) ? urls : undefined;
        },
        { timeoutMs: 5000, what: 'the new provider resolving' },
      );
      expect(resolved.length).toBe(resources + 1);

      const clash = await operate('resource', 'accept', second.sessionId, { acceptanceReason: 'Twice' });
      expect(clash.status).toBe(409);
      expect(clash.body.errorMessage).toBe(
        `While accepting a resource registration request, with reason 'Twice', for namespace 'ncbigene', the following error occurred: 'Resource registration request ACCEPTANCE COULD NOT BE COMPLETED for namespace 'ncbigene' due to the following error 'Namespace 'ncbigene', CANNOT REGISTER resource '${secondPayload.providerName}' with provider code '${code.toUpperCase()}', because that PROVIDER CODE ALREADY EXISTS''`,
      );
      expect(await count('resources', { namespaceId: ncbigene.id })).toBe(resources + 1);
      expect(await t.db('resourceRegistrationSessions').where({ id: second.sessionId }).first()).toMatchObject({ closed: false });
    }, LONG);

    it('comments on, amends and rejects resource requests too', async () => {
      const payload = resourcePayload(sites);
      const { sessionId } = await submit('resource', payload);

      expect((await operate('resource', 'comment', sessionId, { comment: 'Checking' })).status).toBe(200);
      expect((await operate('resource', 'amend', sessionId, { resourceRegistrationRequest: { ...payload, providerName: 'Renamed mirror' } })).status).toBe(200);
      const events = await curatorGet(`/restApi/resourceRegistrationSessionEvents/search/findByResourceRegistrationSessionId?id=${sessionId}`);
      expect(Object.keys(events.body._embedded)).toEqual([
        'resourceRegistrationSessionEventStarts',
        'resourceRegistrationSessionEventComments',
        'resourceRegistrationSessionEventAmends',
      ]);
      const current = await curatorGet(`/restApi/resourceRegistrationSessions/${sessionId}/resourceRegistrationRequest`);
      expect(current.body).toMatchObject({ namespacePrefix: 'ncbigene', providerName: 'Renamed mirror' });
      expect((await operate('resource', 'reject', sessionId, { rejectionReason: 'Duplicate' })).status).toBe(200);
      const late = await operate('resource', 'accept', sessionId);
      expect(late.status).toBe(409);
      expect(late.body.errorMessage).toBe('NO acceptance requests ACCEPTED on ALREADY CLOSED Resource Registration Session');
    }, LONG);
  });
});
