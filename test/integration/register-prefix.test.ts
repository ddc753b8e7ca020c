/**
 * POST /prefixRegistrationApi/registerPrefix with the real checks: URL checks queued to a compiled worker
 * process (npm test builds first) that fetches a fixture server on 127.0.0.1 (so the worker runs with
 * URL_CHECK_ALLOW_PRIVATE_NETWORKS on), and the worker-thread regex tester. Also the requester's status
 * endpoint, Idempotency-Key, and what happens when the checks cannot answer: a check still running, and
 * this test's own redis-server stopped in the middle of a submission (never the shared one).
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { createProducerRedis } from '../../src/queue/connections.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { queueNames } from '../../src/queue/queues.js';
import { createRegexTester, type RegexTester } from '../../src/registry/registration/regex/regex-tester.js';
import { createQueuedUrlCheck } from '../../src/registry/registration/url-check/queued-url-check.js';
import { unique } from '../factories/registration.factory.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { startSites, type Sites } from '../support/fixture-sites.js';
import { stopProcess, type Spawned } from '../support/processes.js';
import { startOwnRedis, type OwnRedis } from '../support/redis-server.js';
import { describeRequiring, redisServerBinary } from '../support/requirements.js';
import { spawnWorker, waitForQueueWorkers } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';

const LONG = 120_000;
const uniquePrefix = () => unique('t');

/** A request as the registration form sends it: apiVersion as a number, fields the service does not know. */
function formRequest(sites: Sites, overrides: Record<string, unknown> = {}) {
  const prefix = (overrides.requestedPrefix as string | undefined) ?? uniquePrefix();
  return {
    apiVersion: 1,
    payload: {
      name: 'Test namespace',
      description: 'A namespace made up for the registration tests, long enough to pass the minimum length.',
      requestedPrefix: prefix,
      sampleId: '204',
      idRegexPattern: '^[0-9]+$',
      providerUrlPattern: sites.url(`/${prefix}/items/{$id}`),
      providerHomeUrl: sites.url('/home'),
      providerName: 'Test provider',
      providerDescription: 'The provider that serves the records of the made-up namespace of these tests.',
      providerLocation: 'GB',
      providerCode: 'baker',
      institutionName: 'Test Institute',
      institutionHomeUrl: sites.url('/institution'),
      institutionDescription: 'An institution made up for the registration tests, with a long description.',
      institutionLocation: 'gb',
      institutionRorId: null,
      references: ['https://doi.org/10.1000/one', 'https://doi.org/10.1000/two'],
      additionalInformation: ['first line', 'second line'],
      requester: { name: 'Rita Requester', email: 'rita@example.org' },
      namespaceEmbeddedInLui: false,
      protectedUrls: false,
      authHelpUrl: null,
      authHelpDescription: null,
      // Sent by the web form, unknown to the service.
      validationState: { name: 'ok' },
      ...overrides,
    },
  };
}

async function readyRedis(url: string): Promise<Redis> {
  const redis = createProducerRedis(url);
  redis.on('error', () => undefined);
  if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

interface AppUnderTest {
  app: RequestListener;
  /** Resolves once its Redis connection is up again (at most 15 s). */
  reconnected: () => Promise<void>;
  close: () => Promise<void>;
}

describe('registerPrefix', () => {
  let t: AreaStack;
  let sites: Sites;
  let queuePrefix: string;
  let regex: RegexTester;
  let sharedRedis: Redis;
  let main: AppUnderTest;
  const workers: Spawned[] = [];
  const closers: (() => Promise<void>)[] = [];

  const startWorker = (env: Record<string, string> = {}) => {
    const worker = spawnWorker(t, { WORKER_LOCK_DURATION_MS: '5000', URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true', ...env });
    workers.push(worker);
    return worker;
  };

  /** The registry area with queued URL checks on `redisUrl` under `prefix`, waiting at most `waitMs`. */
  const buildApp = async (options: { redisUrl: string; prefix: string; waitMs: number; track?: boolean }): Promise<AppUnderTest> => {
    const connection = await readyRedis(options.redisUrl);
    const checks = createQueuedUrlCheck({ connection, prefix: options.prefix, waitMs: options.waitMs, cacheSeconds: 300 });
    const app = t.registryApp({ registration: { urlCheck: checks.urlCheck, regexTest: regex.regexTest } }).callback();
    const close = async () => {
      await checks.close();
      // A connected socket is let end before the server may go: one dropped on a dying server would hold
      // the process 2 s more. A connection that is not up (reconnecting) just stops trying.
      const open = connection.status === 'ready' || connection.status === 'connect';
      const ended = open ? new Promise((resolve) => connection.once('end', resolve)) : Promise.resolve();
      connection.disconnect();
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
    };
    const reconnected = () =>
      waitFor(async () => connection.status === 'ready', { timeoutMs: 15_000, what: 'the app reconnecting to Redis' }).then(() => undefined);
    if (options.track !== false) closers.push(close);
    return { app, reconnected, close };
  };

  const count = async (table: string): Promise<number> => Number(((await t.db(table).count({ n: '*' }).first()) as { n: string }).n);
  const counts = async () => ({
    requests: await count('prefixRegistrationRequests'),
    sessions: await count('prefixRegistrationSessions'),
    events: await count('prefixRegistrationSessionEvents'),
    outbox: await count('notificationOutbox'),
    keys: await count('idempotencyKeys'),
  });
  const submit = (app: RequestListener, body: unknown, key?: string) => {
    const call = request(app).post('/prefixRegistrationApi/registerPrefix').set('Content-Type', 'application/json');
    if (key !== undefined) void call.set('Idempotency-Key', key);
    return call.send(JSON.stringify(body));
  };

  beforeAll(async () => {
    t = await startStack('register_prefix', { env: { CURATOR_EMAIL: 'curators@example.org' } });
    sharedRedis = t.redis;
    queuePrefix = t.config.QUEUE_PREFIX;
    sites = await startSites();
    regex = createRegexTester();
    startWorker();
    await waitForQueueWorkers(queueNames.urlCheck, 1, { redisUrl: t.config.REDIS_URL, prefix: queuePrefix });
    main = await buildApp({ redisUrl: t.config.REDIS_URL, prefix: queuePrefix, waitMs: 15_000 });
  }, LONG);

  afterAll(async () => {
    for (const close of closers) await close();
    await Promise.all(workers.map((worker) => stopProcess(worker)));
    await regex.close();
    await sites.close();
    await t.close();
  }, LONG);

  it('stores a valid request with its session and START event, and answers a token', async () => {
    const before = await counts();
    const body = formRequest(sites);

    const res = await submit(main.app, body);

    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object)).toEqual(['apiVersion', 'errorMessage', 'payload']);
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage: null,
      payload: { comment: 'No comments on your prefix registration request', token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    });
    expect(await counts()).toEqual({ ...before, requests: before.requests + 1, sessions: before.sessions + 1, events: before.events + 1, outbox: before.outbox + 2 });

    const session = await t.db('prefixRegistrationSessions').where({ token: res.body.payload.token }).first();
    expect(session).toMatchObject({ closed: false });
    const stored = await t.db('prefixRegistrationRequests').where({ id: session.requestId }).first();
    expect(stored).toMatchObject({
      requestedPrefix: body.payload.requestedPrefix,
      providerLocation: 'GB',
      institutionLocation: 'GB',
      supportingReferences: ['https://doi.org/10.1000/one', 'https://doi.org/10.1000/two'],
      additionalInformation: 'first line\nsecond line',
      requesterEmail: 'rita@example.org',
      institutionRorId: null,
    });
    const events = await t.db('prefixRegistrationSessionEvents').where({ sessionId: session.id });
    expect(events).toEqual([
      expect.objectContaining({ eventName: 'START', actor: 'ANONYMOUS', requestId: stored.id, additionalInformation: 'Source, Open API for prefix registration request submission' }),
    ]);
    const outbox = await t.db('notificationOutbox').orderBy('id', 'desc').limit(2);
    expect(outbox.map((row: { kind: string; recipient: string }) => [row.kind, row.recipient]).sort()).toEqual([
      ['prefix.start.curator', 'curators@example.org'],
      ['prefix.start.requester', 'rita@example.org'],
    ]);
  }, LONG);

  it('defaults the additional information of a request sent without it', async () => {
    const res = await submit(main.app, formRequest(sites, { additionalInformation: undefined, references: undefined, supportingReferences: ['ref'] }));

    expect(res.status).toBe(200);
    const session = await t.db('prefixRegistrationSessions').where({ token: res.body.payload.token }).first();
    const stored = await t.db('prefixRegistrationRequests').where({ id: session.requestId }).first();
    expect(stored.additionalInformation).toBe('--- No additional information provided ---');
    expect(stored.supportingReferences).toEqual(['ref']);
  }, LONG);

  it('shows the requester the state and public history of the request by its token, never an e-mail address', async () => {
    const body = formRequest(sites);
    const token = (await submit(main.app, body)).body.payload.token as string;

    const res = await request(main.app).get(`/prefixRegistrationApi/status/${token}`);

    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage: null,
      payload: {
        requestedPrefix: body.payload.requestedPrefix,
        status: 'open',
        created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/),
        events: [{ eventName: 'START', created: expect.any(String) }],
      },
    });
    expect(res.text).not.toContain('rita@example.org');
    expect(res.text).not.toContain('ANONYMOUS');
  }, LONG);

  it('answers 404 for a token that names no request', async () => {
    for (const token of ['A'.repeat(43), 'not a token!', 'x'.repeat(300)]) {
      const res = await request(main.app).get(`/prefixRegistrationApi/status/${encodeURIComponent(token)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: 'No registration request has this token', payload: null });
    }
  });

  it('refuses an invalid request with every message, in chain order, and stores nothing', async () => {
    const before = await counts();
    const body = formRequest(sites, {
      name: '   ',
      description: 'Too short',
      requestedPrefix: 'go',
      requester: { name: 'Rita Requester', email: 'not-an-email' },
    });

    const res = await submit(main.app, body, `invalid-${randomBytes(4).toString('hex')}`);

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage:
        "INVALID Prefix registration request due to 'Name is required\nDescription MUST be longer than 50 characters\nPrefix 'go' already exists\nnot-an-email is not a valid email address'",
      payload: { comment: 'No comments on your prefix registration request', token: '' },
    });
    expect(await counts()).toEqual(before);
  }, LONG);

  it('refuses an invalid resource request with the reference wording, naming the provider', async () => {
    const before = await count('resourceRegistrationRequests');
    const resource = {
      namespacePrefix: 'nonexistent',
      providerHomeUrl: sites.url('/home'),
      providerName: '',
      providerDescription: 'A provider made up for the resource registration refusal test, long enough.',
      providerLocation: 'JP',
      providerCode: 'mirror',
      providerUrlPattern: sites.url('/mirror/items/{$id}'),
      sampleId: '100010',
      institutionName: 'Mirror Institute',
      institutionHomeUrl: sites.url('/institution'),
      institutionDescription: 'The institution of the made-up mirror of the resource registration test.',
      institutionLocation: 'JP',
      requester: { name: 'Rob Resource', email: 'rob@example.org' },
    };

    const res = await request(main.app).post('/resourceManagementApi/registerResource').send({ apiVersion: '1.0', payload: resource });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage:
        "INVALID Resource registration request for resource name '--- Resource Name NOT SPECIFIED ---', due to 'Provider Name is required\nNamespace with prefix 'nonexistent' does not exist\nPrefix 'nonexistent' IS NOT REGISTERED\nPrefix nonexistent does not exist'",
      payload: { comment: 'No comments on your prefix registration request', token: '' },
    });
    expect(await count('resourceRegistrationRequests')).toBe(before);
  }, LONG);

  it('answers 400 Payload is required without a payload', async () => {
    const res = await submit(main.app, { apiVersion: '1.0' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: 'Payload is required', payload: null });
  });

  it('answers a retry with the same Idempotency-Key with the first answer, creating one request', async () => {
    const before = await counts();
    const body = formRequest(sites);
    const key = `retry-${randomBytes(8).toString('hex')}`;

    const first = await submit(main.app, body, key);
    const second = await submit(main.app, body, key);

    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(await counts()).toMatchObject({ requests: before.requests + 1, sessions: before.sessions + 1, keys: before.keys + 1 });
  }, LONG);

  it('creates one request when two submissions with one key arrive together', async () => {
    const before = await counts();
    const body = formRequest(sites);
    const key = `together-${randomBytes(8).toString('hex')}`;

    const [a, b] = await Promise.all([submit(main.app, body, key), submit(main.app, body, key)]);

    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.payload.token).toBe(b.body.payload.token);
    expect(await counts()).toMatchObject({ requests: before.requests + 1, sessions: before.sessions + 1, keys: before.keys + 1 });
  }, LONG);

  it('answers 422 when a key comes back with another request', async () => {
    const key = `reused-${randomBytes(8).toString('hex')}`;
    expect((await submit(main.app, formRequest(sites), key)).status).toBe(200);
    const before = await counts();

    const res = await submit(main.app, formRequest(sites), key);

    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage: 'This Idempotency-Key was already used for a different request; use a new key for a new request',
      payload: null,
    });
    expect(await counts()).toEqual(before);
  }, LONG);

  it('refuses a malformed Idempotency-Key', async () => {
    const res = await submit(main.app, formRequest(sites), 'k'.repeat(256));
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toBe('Idempotency-Key must be 1 to 255 visible ASCII characters');
  });

  it('answers 503 with Retry-After and stores nothing while a URL check is still running', async () => {
    // No worker serves this queue prefix, and the wait is tiny.
    const idle = await buildApp({ redisUrl: t.config.REDIS_URL, prefix: `${queuePrefix}-idle`, waitMs: 50 });
    const before = await counts();

    const res = await submit(idle.app, formRequest(sites), `running-${randomBytes(4).toString('hex')}`);

    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({
      apiVersion: '1.0',
      errorMessage:
        'The live checks of the URLs in your request are still running; nothing was stored. Please send the same request again in a few seconds',
      payload: null,
    });
    expect(await counts()).toEqual(before);
    await deleteQueueKeys(sharedRedis, `${queuePrefix}-idle`);
  }, LONG);

  describeRequiring([redisServerBinary()], "when the test's own Redis stops in the middle of a submission", () => {
    let ownRedis: OwnRedis;
    let ownWorker: Spawned;
    let stoppedApp: AppUnderTest | undefined;

    beforeAll(async () => {
      ownRedis = await startOwnRedis();
      ownWorker = startWorker({ REDIS_URL: ownRedis.url, SHUTDOWN_TIMEOUT_MS: '1000' });
      await waitForQueueWorkers(queueNames.urlCheck, 1, { redisUrl: ownRedis.url, prefix: queuePrefix });
    }, LONG);

    afterAll(async () => {
      await stopProcess(ownWorker, 'SIGKILL');
      try {
        // Back up for a moment, so that the app's queue clients close cleanly instead of retrying for ever.
        if (stoppedApp) {
          await ownRedis.start();
          await stoppedApp.reconnected();
          await stoppedApp.close();
        }
      } finally {
        await ownRedis.stop('SIGKILL');
        await ownRedis.destroy();
      }
    }, LONG);

    it('answers a clear retryable 503 and leaves no rows behind', async () => {
      const app = await buildApp({ redisUrl: ownRedis.url, prefix: queuePrefix, waitMs: 15_000, track: false });
      stoppedApp = app;
      const before = await counts();
      const slowPath = `/slow/${randomBytes(4).toString('hex')}`;
      const key = `redis-stop-${randomBytes(4).toString('hex')}`;

      const answer = submit(app.app, formRequest(sites, { providerHomeUrl: sites.url(slowPath) }), key).then((res) => res);
      // The worker is fetching the slow page: the submission is waiting for its verdict.
      await waitFor(async () => sites.hits.includes(slowPath), { timeoutMs: 20_000, what: 'the worker fetching the slow page' });
      await ownRedis.stop();
      // Answered because the queue went away, not after the 15 s wait: that would say the check is still
      // running, where this message says the queue is unreachable.
      const res = await answer;

      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.body).toEqual({
        apiVersion: '1.0',
        errorMessage:
          'The checks of your request cannot run right now (the check queue is unreachable); nothing was stored. Please send the same request again shortly',
        payload: null,
      });
      expect(await counts()).toEqual(before);
    }, LONG);
  });
});
