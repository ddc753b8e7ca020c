/**
 * Issue 21 item 9: one throttle of wrong curator tokens for every place the token is taken (the curation
 * APIs' bearer token, the queue board's, the persons' reads and the desk's sign-in form), counted per client
 * address in Redis so that every registry process shares it. Past ten wrong tokens an address's further
 * wrong tries are answered 429 with a Retry-After that grows; the right token is let in all the while, so
 * nobody can lock the curators out. While Redis cannot be reached, each process counts on its own.
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { Redis } from 'ioredis';
import request from 'supertest';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { HTML_ACCEPT, postDeskSignIn } from '../support/desk-session.js';

const CURATOR_TOKEN = randomBytes(24).toString('hex');
const API = '/curationApi/warningsSummary';
const BOARD_API = '/curation/queues/api/queues';

describe('the wrong curator token throttle', () => {
  let t: RegistryUnderTest;
  /** Two registry processes on the same Redis, as behind a balancer; each believes X-Forwarded-For. */
  let first: RequestListener;
  let second: RequestListener;
  let personId: number;
  let address = 0;
  /** An address of the test's own, so that the tests' counts stay apart. */
  const nextAddress = () => ({ 'X-Forwarded-For': `192.0.2.${++address}` });

  beforeAll(async () => {
    t = await startRegistry('token_throttle', { env: { CURATOR_TOKEN } });
    first = t.registryApp({ env: { TRUST_PROXY: 'true' } }).callback();
    second = t.registryApp({ env: { TRUST_PROXY: 'true' } }).callback();
    const [person] = (await t.db('persons').insert({ fullName: 'Ada Contact', email: 'ada.contact@example.org' }).returning('id')) as { id: number }[];
    personId = person!.id;
  });

  afterAll(async () => {
    await t?.close();
  });

  const bearer = (app: RequestListener, path: string, token: string, from: Record<string, string>) =>
    request(app).get(path).set('Authorization', `Bearer ${token}`).set('Accept', 'application/json').set(from);
  const signIn = async (app: RequestListener, token: string, from: Record<string, string>) => {
    const form = await request(app).get('/curation/sign-in').set('Accept', HTML_ACCEPT);
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)![1]!;
    const cookie = ((form.headers['set-cookie'] as unknown as string[])[0] ?? '').split(';')[0]!;
    return request(app).post('/curation/sign-in').set('Accept', HTML_ACCEPT).set('Cookie', cookie).set(from).type('form').send({ csrf, token, next: '/curation' });
  };

  it('answers 429 with a growing Retry-After after ten wrong tokens from one address, on the APIs and the desk form alike', async () => {
    const from = nextAddress();
    for (let i = 0; i < 5; i++) expect((await bearer(first, API, `wrong-${i}`, from)).status).toBe(403);
    for (let i = 5; i < 10; i++) expect((await signIn(first, `wrong-${i}`, from)).status).toBe(401);

    const api = await bearer(first, API, 'wrong-10', from);
    expect(api.status).toBe(429);
    expect(api.headers['retry-after']).toBe('1');
    expect(api.body.errorMessage).toBe('Too many wrong curator tokens were sent from your address: wait the seconds the Retry-After header gives before the next try');
    const desk = await signIn(first, 'wrong-11', from);
    expect(desk.status).toBe(429);
    expect(desk.headers['retry-after']).toBe('2');
    expect(desk.text).toContain('Too many wrong curator tokens were sent from your address. Try again in 2 seconds.');
    const board = await bearer(first, BOARD_API, 'wrong-12', from);
    expect(board.status).toBe(429);
    expect(board.headers['retry-after']).toBe('4');
    const person = await bearer(first, `/restApi/persons/${personId}`, 'wrong-13', from);
    expect(person.status).toBe(429);
    expect(person.headers['retry-after']).toBe('8');
  });

  it('lets the right token in from a throttled address, on the APIs, the queue board, the persons’ reads and the desk form', async () => {
    const from = nextAddress();
    for (let i = 0; i < 11; i++) await bearer(first, API, `wrong-${i}`, from);
    expect((await bearer(first, API, 'wrong-11', from)).status).toBe(429);

    expect((await bearer(first, API, CURATOR_TOKEN, from)).status).toBe(200);
    expect((await bearer(first, BOARD_API, CURATOR_TOKEN, from)).status).toBe(200);
    const person = await bearer(first, `/restApi/persons/${personId}`, CURATOR_TOKEN, from);
    expect(person.status).toBe(200);
    expect(person.body.email).toBe('ada.contact@example.org');
    const desk = await signIn(first, CURATOR_TOKEN, from);
    expect(desk.status).toBe(303);
    expect(desk.headers.location).toBe('/curation');
    // The right token clears nothing: the address's next wrong try is still throttled.
    expect((await bearer(first, API, 'wrong-12', from)).status).toBe(429);
  });

  it('shares the count between two registry processes on the same Redis', async () => {
    const from = nextAddress();
    for (let i = 0; i < 5; i++) expect((await bearer(first, API, `wrong-${i}`, from)).status).toBe(403);
    for (let i = 5; i < 10; i++) expect((await signIn(second, `wrong-${i}`, from)).status).toBe(401);
    expect((await bearer(second, API, 'wrong-10', from)).status).toBe(429);
    expect((await signIn(first, 'wrong-11', from)).status).toBe(429);
    expect((await bearer(second, API, CURATOR_TOKEN, from)).status).toBe(200);
  });

  it('counts other addresses apart', async () => {
    const throttled = nextAddress();
    for (let i = 0; i < 11; i++) await bearer(first, API, `wrong-${i}`, throttled);
    expect((await bearer(first, API, 'wrong-11', throttled)).status).toBe(429);
    expect((await bearer(first, API, 'wrong-0', nextAddress())).status).toBe(403);
  });

  it('keeps throttling wrong tokens in each process while Redis cannot be reached, and lets the right token in', async () => {
    const unreachable = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    unreachable.on('error', () => undefined);
    try {
      const alone = t.registryApp({ env: { TRUST_PROXY: 'true' }, redis: unreachable }).callback();
      const from = nextAddress();
      for (let i = 0; i < 10; i++) expect((await bearer(alone, API, `wrong-${i}`, from)).status).toBe(403);
      const refused = await bearer(alone, API, 'wrong-10', from);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect((await bearer(alone, API, CURATOR_TOKEN, from)).status).toBe(200);
      expect((await postDeskSignIn(alone, CURATOR_TOKEN)).status).toBe(303);
    } finally {
      unreachable.disconnect();
    }
  });
});
