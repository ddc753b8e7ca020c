/**
 * The curation actions refuse a body that is not a session-event envelope before touching the session
 * (issue 10, item 7); the curator token cannot be sent from a page of another origin (no Authorization in
 * a preflight's allowed headers); and a curator token that is short or holds whitespace stops the registry
 * at start, naming the setting (item 9). Sessions are stored directly: the actions' bodies are what is
 * tested here, not the submission's checks (curation.test.ts runs the whole way).
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { newSessionToken } from '../../src/registry/model/registration-records.js';
import { storeRegistration } from '../../src/registry/registration/submission/submission.service.js';
import { normaliseRegistrationPayload } from '../../src/registry/model/registration-payload.js';
import { prefixRegistration } from '../factories/registration.factory.js';
import { REGISTRY_URL, RESOLVER_URL, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { freePort, spawnNode } from '../support/processes.js';
import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '../support/test-database.js';
import { sendPreflight } from '../support/cors.js';

const TOKEN = randomBytes(24).toString('hex');
const NOTIFICATIONS = { publicRegistryUrl: REGISTRY_URL, publicResolverUrl: RESOLVER_URL, curatorEmail: '' };
const ENVELOPE_MESSAGE = 'The request body must be a session-event envelope: {"apiVersion": "1.0", "payload": {...}}';

const payload = (prefix: string) => normaliseRegistrationPayload(prefixRegistration(prefix));

describe('curation hardening', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;

  const openSession = async (): Promise<number> => {
    const outcome = await storeRegistration(t.db, 'prefix', payload(`h${randomBytes(4).toString('hex')}`), {
      token: newSessionToken(),
      notifications: NOTIFICATIONS,
    });
    if (!outcome.stored) throw new Error('not stored');
    return outcome.sessionId;
  };
  const post = (action: string, sessionId: number) =>
    request(app).post(`/prefixRegistrationApi/${action}PrefixRegistrationRequest/${sessionId}`).set('Authorization', `Bearer ${TOKEN}`);
  const eventsOf = async (sessionId: number) =>
    ((await t.db('prefixRegistrationSessionEvents').where({ sessionId }).orderBy('id').select('eventName')) as { eventName: string }[]).map(
      (e) => e.eventName,
    );
  const isClosed = async (sessionId: number) => ((await t.db('prefixRegistrationSessions').where({ id: sessionId }).first('closed')) as { closed: boolean }).closed;

  beforeAll(async () => {
    t = await startRegistry('curation_hardening', { data: 'none', env: { CURATOR_TOKEN: TOKEN } });
    app = t.app;
  });
  afterAll(() => t.close());

  describe('a body that is not a session-event envelope', () => {
    it.each([
      ['comment', '123'],
      ['comment', '"str"'],
      ['reject', '"str"'],
      ['reject', '123'],
      ['accept', '[]'],
      ['accept', 'null'],
      ['accept', '{}'],
      ['reject', '{"payload": {"rejectionReason": "no apiVersion"}}'],
    ])('%s with %s answers 400 and leaves the session as it was', async (action, body) => {
      const sessionId = await openSession();

      const res = await post(action, sessionId).set('Content-Type', 'application/json').send(body);

      expect(res.status).toBe(400);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: ENVELOPE_MESSAGE, payload: { comment: null } });
      expect(await eventsOf(sessionId)).toEqual(['START']);
      expect(await isClosed(sessionId)).toBe(false);
    });

    it('refuses an empty body to reject or accept', async () => {
      const sessionId = await openSession();
      for (const action of ['reject', 'accept']) {
        const res = await post(action, sessionId);
        expect([action, res.status, res.body.errorMessage]).toEqual([action, 400, ENVELOPE_MESSAGE]);
      }
      expect(await isClosed(sessionId)).toBe(false);
    });

    it.each([
      ['a payload that is not an object', { apiVersion: '1.0', payload: 'reject it' }, 'Payload must be a JSON object'],
      ['a reason that is not a text', { apiVersion: '1.0', payload: { rejectionReason: ['no'] } }, "'rejectionReason' must be a string"],
      ['a reason too long', { apiVersion: '1.0', payload: { rejectionReason: 'x'.repeat(10_001) } }, "'rejectionReason' is too long (at most 10000 characters)"],
      ['an apiVersion that is an object', { apiVersion: { major: 1 }, payload: {} }, `'apiVersion' must be a version such as "1.0"`],
    ])('refuses %s with a message saying what is wrong', async (_what, body, message) => {
      const sessionId = await openSession();
      const res = await post('reject', sessionId).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: message, payload: { comment: null } });
      expect(await isClosed(sessionId)).toBe(false);
    });

    it('refuses an amendment without the amended request, whatever else the body holds', async () => {
      const sessionId = await openSession();
      for (const body of [{ apiVersion: '1.0' }, { apiVersion: '1.0', payload: { comment: 'no request' } }]) {
        const res = await post('amend', sessionId).send(body);
        expect(res.status).toBe(400);
        expect(res.body.errorMessage).toBe("'prefixRegistrationRequest' is required: the amended request");
      }
      const wrongType = await post('amend', sessionId).send({ apiVersion: '1.0', payload: { prefixRegistrationRequest: 'text' } });
      expect(wrongType.body.errorMessage).toBe("'prefixRegistrationRequest' must be a JSON object: the amended request");
      expect(await eventsOf(sessionId)).toEqual(['START']);
    });
  });

  describe('a well-formed envelope', () => {
    it('still takes apiVersion as a number, no payload, and unknown properties, as the reference', async () => {
      const sessionId = await openSession();

      const comment = await post('comment', sessionId).send({ apiVersion: 1, payload: { comment: 'Fine', source: 'ui' }, extra: true });
      const reject = await post('reject', sessionId).send({ apiVersion: '1.0' });

      expect([comment.status, comment.body]).toEqual([200, { apiVersion: '1.0', errorMessage: null, payload: { comment: null } }]);
      expect(reject.status).toBe(200);
      expect(await eventsOf(sessionId)).toEqual(['START', 'COMMENT', 'REJECT']);
      const rejection = await t.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'REJECT' }).first('rejectionReason');
      expect(rejection).toEqual({ rejectionReason: 'No rejection reason provided' });
    });
  });

  describe('CORS', () => {
    it('does not let a page of another origin send the curator token', async () => {
      for (const path of ['/prefixRegistrationApi/acceptPrefixRegistrationRequest/1', '/restApi/prefixRegistrationSessions/search/findByClosedFalse']) {
        const preflight = await request(app)
          .options(path)
          .set('Origin', 'https://elsewhere.example')
          .set('Access-Control-Request-Method', path.includes('accept') ? 'POST' : 'GET')
          .set('Access-Control-Request-Headers', 'authorization,content-type');
        const allowed = (preflight.headers['access-control-allow-headers'] ?? '').toLowerCase().split(/\s*,\s*/);
        expect([path, allowed.includes('authorization')]).toEqual([path, false]);
      }
    });

    it('keeps the public endpoints open to any origin, with a JSON body', async () => {
      const preflight = await sendPreflight(app, '/prefixRegistrationApi/registerPrefix', 'https://elsewhere.example', 'POST', 'content-type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toContain('POST');
      expect(preflight.headers['access-control-allow-headers']?.toLowerCase()).toContain('content-type');
      const get = await request(app).get('/restApi/namespaces?size=1').set('Origin', 'https://elsewhere.example');
      expect(get.headers['access-control-allow-origin']).toBe('*');
    });
  });

  describe('the curator token setting', () => {
    it.each([
      ['one character', 'x'],
      ['31 characters', 'c'.repeat(31)],
      ['a space inside', `${'a'.repeat(20)} ${'b'.repeat(20)}`],
    ])('stops the registry at start when it is %s, naming the setting but not its value', async (_what, token) => {
      const run = spawnNode('dist/src/registry/main.js', {
        DATABASE_URL: TEST_POSTGRES_URL,
        REDIS_URL: TEST_REDIS_URL,
        HOST: '127.0.0.1',
        REGISTRY_PORT: String(await freePort()),
        CURATOR_TOKEN: token,
      });
      // A registry that starts anyway is stopped, so that the failure is an assertion and not a hang.
      const timer = setTimeout(() => run.child.kill('SIGKILL'), 15_000);
      const { code } = await run.exited;
      clearTimeout(timer);
      expect(code).toBe(1);
      expect(run.output()).toContain('CURATOR_TOKEN must be at least 32 characters without whitespace');
      if (token.length > 1) expect(run.output()).not.toContain(token);
    }, 30_000);
  });
});
