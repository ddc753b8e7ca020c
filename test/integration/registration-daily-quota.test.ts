/**
 * Issue 21 item 11: what one client address may file per day. With the rate limits on and the default
 * REGISTRATION_REQUESTS_PER_DAY (20), the 21st registration request of the day from one address (either
 * kind, API or form) is refused 429 with Retry-After and a clear message before any check, and stores
 * nothing; refused requests do not count; curators are exempt. Each test is a client of its own behind a
 * trusted proxy (X-Forwarded-For).
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { prefixRegistration, resourceRegistration, unique } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const CURATOR_TOKEN = randomBytes(24).toString('hex');
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const DAY_SECONDS = 24 * 60 * 60;
const USED_UP = /^Too many registration requests from your address: at most 20 a day\. Nothing was stored; please send it again in \d+ hours \(Retry-After\)$/;

let t: RegistryUnderTest;
let app: RequestListener;
let lastAddress = 0;
/** A client address of its own, as the trusted proxy names it. */
const newClient = () => `198.51.100.${++lastAddress}`;

const sendPrefix = (client: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request(app).post('/prefixRegistrationApi/registerPrefix').set('X-Forwarded-For', client).set(headers).send({ apiVersion: '1.0', payload });
const sendResource = (client: string, payload: Record<string, unknown>) =>
  request(app).post('/resourceManagementApi/registerResource').set('X-Forwarded-For', client).send({ apiVersion: '1.0', payload });

/** Files `n` valid requests from `client`, alternating the two kinds. */
async function fileRequests(client: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const res = i % 2 === 0 ? await sendPrefix(client, prefixRegistration(unique('q'))) : await sendResource(client, resourceRegistration(unique('q')));
    expect([i, res.status]).toEqual([i, 200]);
  }
}

const stored = async (table: string) => Number(((await t.db(table).count({ n: '*' }).first()) as { n: string }).n);

beforeAll(async () => {
  t = await startRegistry('regquota', { registration: regexpChecks, env: { RATE_LIMITS: 'true', RATE_LIMIT_SUBMISSIONS: '10000', TRUST_PROXY: '1', CURATOR_TOKEN } });
  app = t.app;
});

afterAll(async () => {
  await t.close();
});

describe('registration requests per address and day', () => {
  it('takes 20 requests of one address and refuses the 21st, of either kind, with 429, Retry-After and why, storing nothing', async () => {
    const client = newClient();
    await fileRequests(client, 20);
    const before = [await stored('prefixRegistrationRequests'), await stored('resourceRegistrationRequests'), await stored('notificationOutbox')];

    const refused = await sendPrefix(client, prefixRegistration(unique('q')));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ apiVersion: '1.0', errorMessage: expect.stringMatching(USED_UP), payload: null });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(DAY_SECONDS - 3600);
    expect(retryAfter).toBeLessThanOrEqual(DAY_SECONDS);
    expect((await sendResource(client, resourceRegistration(unique('q')))).status).toBe(429);
    // Refused before its checks: a request that would fail them is refused the same.
    expect((await sendPrefix(client, prefixRegistration('go'))).status).toBe(429);

    expect([await stored('prefixRegistrationRequests'), await stored('resourceRegistrationRequests'), await stored('notificationOutbox')]).toEqual(before);
    // Another address is not held back.
    expect((await sendPrefix(newClient(), prefixRegistration(unique('q')))).status).toBe(200);
  });

  it('refuses the 21st sent through the request form with the page and the reason (429)', async () => {
    const client = newClient();
    await fileRequests(client, 20);
    const page = await request(app).get('/prefixregistrationrequest').set('Accept', HTML).set('X-Forwarded-For', client);
    const cookie = (page.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const prefix = unique('q');
    const fields = { ...prefixRegistration(prefix), requesterName: 'Ann Example', requesterEmail: 'ann@example.org', references: '', csrf } as Record<string, unknown>;
    delete fields.requester;
    delete fields.namespaceEmbeddedInLui;
    delete fields.protectedUrls;

    const res = await request(app).post('/prefixregistrationrequest').set('Accept', HTML).set('Cookie', cookie).set('X-Forwarded-For', client).type('form').send(fields);

    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.text).toMatch(/Too many registration requests from your address: at most 20 a day\. Nothing was stored/);
    expect(res.text).toContain(`value="${prefix}"`);
    expect(await t.db('prefixRegistrationRequests').where({ requestedPrefix: prefix }).first()).toBeUndefined();
  });

  it('counts only stored requests: refused ones leave the day as it was', async () => {
    const client = newClient();
    for (let i = 0; i < 25; i++) expect((await sendPrefix(client, prefixRegistration('go'))).status).toBe(400);
    await fileRequests(client, 20);
    expect((await sendPrefix(client, prefixRegistration(unique('q')))).status).toBe(429);
  });

  it('never holds a curator back', async () => {
    const client = newClient();
    await fileRequests(client, 20);
    const res = await sendPrefix(client, prefixRegistration(unique('q')), { Authorization: `Bearer ${CURATOR_TOKEN}` });
    expect(res.status).toBe(200);
  });
});
