import { randomBytes } from 'node:crypto';
/**
 * Fault drill for the registry area: this test's own Postgres cluster (never the shared server) is stopped
 * under a running registry app. Every answer that needs the database is 503 with Retry-After and a message
 * naming the database, in the usual envelope, and promptly (not after knex's acquire timeout); the dataset
 * download keeps serving the prebuilt file; once Postgres is back the same requests answer 200 again
 * without a restart.
 */
import type { RequestListener } from 'node:http';
import net from 'node:net';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { createDb, type Db } from '../../src/db/knex.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { deleteQueueKeys } from '../../src/queue/queue-keys.js';
import { createRegistryApp } from '../../src/registry/app.js';
import { prefixRegistration } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { startOwnPostgres, type OwnPostgres } from '../support/postgres-cluster.js';
import { regexpChecks } from '../support/stand-in-checks.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { settlesWithin, waitFor } from '../support/wait.js';

const { urlCheck, regexTest } = regexpChecks;

const MESSAGE = 'The registry database is unavailable; retry in a few seconds';

describe('the registry area while Postgres is down', () => {
  let pg: OwnPostgres;
  let t: RegistryUnderTest;
  let app: RequestListener;

  /**
   * Every kind of request that reads or writes the registry. Each call gives fresh query strings and
   * prefixes, so that no answer cache of the area can answer for the database.
   */
  let round = 0;
  const databaseRequests = () => {
    round++;
    return [
      { what: 'browse', send: () => request(app).get(`/restApi/namespaces?page=0&size=${10 + round}`) },
      { what: 'search', send: () => request(app).get(`/restApi/namespaces/search/findByPrefixContaining?content=tax&size=${10 + round}`) },
      { what: 'namespace page', send: () => request(app).get('/registry/taxonomy') },
      { what: 'statistics', send: () => request(app).get('/statistics/namespace/taxonomy') },
      { what: 'schema.org', send: () => request(app).get('/schemaOrgApi/getMetadataForNamespacePrefix/taxonomy') },
      {
        what: 'validateRequestedPrefix',
        send: () => request(app).post('/prefixRegistrationApi/validateRequestedPrefix').send({ apiVersion: '1.0', payload: { requestedPrefix: `outage${round}v` } }),
      },
      {
        what: 'registerPrefix',
        send: () => request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration(`outage${round}r`) }),
      },
    ];
  };

  beforeAll(async () => {
    pg = await startOwnPostgres();
    // The dataset is built while Postgres is up, as the worker would have done.
    t = await startRegistry('outage', { postgresUrl: pg.url('postgres'), dataset: 'built', registration: regexpChecks });
    app = t.app;
  }, 60000);

  afterAll(async () => {
    await t?.close();
    pg?.destroy();
  });

  it('answers every request when Postgres is up', async () => {
    for (const { what, send } of databaseRequests()) {
      const res = await send();
      expect({ what, status: res.status }).toEqual({ what, status: what === 'namespace page' ? 302 : 200 });
    }
  }, 30000);

  it('answers 503 with Retry-After and a message naming the database, promptly, while Postgres is stopped', async () => {
    pg.stop();
    for (const { what, send } of databaseRequests()) {
      // "Promptly" means not after knex's 10 s acquire timeout: a refused connection answers at once, so a
      // deadline below those 10 s tells the two apart on however busy a machine.
      const res = await settlesWithin(send(), { timeoutMs: 8000, what: `the answer to the ${what} request` });
      expect({ what, status: res.status, retryAfter: res.headers['retry-after'], body: res.body }).toEqual({
        what,
        status: 503,
        retryAfter: '5',
        body: { apiVersion: '1.0', errorMessage: MESSAGE, payload: null },
      });
    }
  }, 120000);

  it('keeps serving the dataset file it built while Postgres was up', async () => {
    const res = await request(app).get('/resolutionApi/getResolverDataset');
    expect(res.status).toBe(200);
    expect(res.body.payload.namespaces.length).toBeGreaterThan(0);
  });

  it('answers again once Postgres is back, without a restart', async () => {
    pg.start();
    await waitFor(async () => (await request(app).get('/registry/taxonomy')).status === 302, { timeoutMs: 20000, what: 'the namespace page answering' });
    for (const { what, send } of databaseRequests()) {
      const res = await send();
      expect({ what, status: res.status }).toEqual({ what, status: what === 'namespace page' ? 302 : 200 });
    }
  }, 60000);
});

describe('the registry area when Postgres accepts connections but never answers', () => {
  const sockets = new Set<net.Socket>();
  // A hung server: the TCP connection opens, the startup message is never answered.
  const silent = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const redis = createProducerRedis(TEST_REDIS_URL);
  const queuePrefix = `test-hung-postgres-${randomBytes(4).toString('hex')}`;
  let db: Db;
  let app: RequestListener;

  beforeAll(async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `postgres://postgres@127.0.0.1:${(silent.address() as net.AddressInfo).port}/hung`;
    db = createDb(url, { max: 3 });
    // A queue prefix of its own: the app's queues write their keys under it, removed in afterAll.
    const config = loadConfig({ DATABASE_URL: url, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'silent', QUEUE_PREFIX: queuePrefix });
    app = createRegistryApp({ config, db, redis, logger: createLogger('silent', 'test'), registration: { urlCheck, regexTest } }).callback();
  });

  afterAll(async () => {
    await db.destroy();
    await deleteQueueKeys(redis, queuePrefix);
    redis.disconnect();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it('answers 503 within a few seconds, not at the end of the pool acquire timeout (10 s)', async () => {
    // The connect timeout is 3 s, the acquire timeout 10 s: a deadline between them tells which one answered.
    const res = await settlesWithin(request(app).get('/restApi/namespaces/search/findByPrefix?prefix=taxonomy').then((r) => r), {
      timeoutMs: 8000,
      what: 'the 503 of the connect timeout',
    });
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: MESSAGE, payload: null });
  }, 30000);
});
