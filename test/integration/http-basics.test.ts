import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import { Router } from '@koa/router';
import { Redis } from 'ioredis';
import Koa from 'koa';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { createDb } from '../../src/db/knex.js';
import { createBaseApp } from '../../src/http/base-app.js';
import { healthEndpoints, READINESS_MAX_AGE_MS } from '../../src/http/health.js';
import { pingPostgres } from '../../src/db/postgres-failure.js';
import { HttpError } from '../../src/http/http-error.js';
import { BATCH_JSON_LIMIT, jsonBody } from '../../src/http/json-body.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis, pingRedis } from '../../src/queue/connections.js';
import { createRegistryApp } from '../../src/registry/app.js';
import { createResolverApp } from '../../src/resolver/app.js';
import { emptySnapshot } from '../../src/core/registry-snapshot.js';
import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '../support/test-database.js';

const logger = createLogger('silent', 'test');

function buildApp() {
  const app = createBaseApp({ logger, logSampleRate: 0, checks: [] });
  const router = new Router();
  router.post('/echo', jsonBody(), (ctx) => {
    ctx.body = { got: ctx.request.body };
  });
  router.post('/batch', jsonBody(BATCH_JSON_LIMIT), (ctx) => {
    ctx.body = { size: JSON.stringify(ctx.request.body).length };
  });
  router.get('/teapot', () => {
    throw new HttpError(418, 'I am a teapot');
  });
  router.get('/boom', () => {
    throw new Error('secret internal detail');
  });
  app.use(router.routes()).use(router.allowedMethods());
  return app.callback();
}

const envelopeOf = (errorMessage: unknown) => ({ apiVersion: '1.0', errorMessage, payload: null });

describe('HTTP basics shared by both areas', () => {
  const app = buildApp();

  it('answers an unknown route with 404 in the envelope', async () => {
    const res = await request(app).get('/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(envelopeOf('No such endpoint: GET /no/such/thing'));
  });

  it('answers malformed JSON with 400 saying so', async () => {
    const res = await request(app).post('/echo').set('Content-Type', 'application/json').send('{"apiVersion": "1.0",');
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/^Malformed JSON in request body/);
    expect(res.body.payload).toBeNull();
  });

  it('refuses a body over 64 KiB with 413 naming the limit', async () => {
    const res = await request(app).post('/echo').set('Content-Type', 'application/json').send(JSON.stringify({ x: 'a'.repeat(70 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual(envelopeOf('Request body is larger than the limit of 64 KiB'));
  });

  it('refuses an oversized body even when sent in chunks without a Content-Length', async () => {
    const server = http.createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/echo', headers: { 'Content-Type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"x":"');
      for (let i = 0; i < 80; i++) req.write('a'.repeat(1024));
      req.end('"}');
    });
    server.close();
    expect(status).toBe(413);
  });

  it('accepts up to 1 MiB on batch endpoints', async () => {
    const body = JSON.stringify({ x: 'a'.repeat(900 * 1024) });
    const res = await request(app).post('/batch').set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(200);
    const tooBig = await request(app).post('/batch').set('Content-Type', 'application/json').send(JSON.stringify({ x: 'a'.repeat(1100 * 1024) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errorMessage).toBe('Request body is larger than the limit of 1 MiB');
  });

  it('refuses a non-JSON content type with 415', async () => {
    const res = await request(app).post('/echo').set('Content-Type', 'text/plain').send('hello');
    expect(res.status).toBe(415);
    expect(res.body.errorMessage).toMatch(/application\/json/);
  });

  it('passes a client error through with its status and message', async () => {
    const res = await request(app).get('/teapot');
    expect(res.status).toBe(418);
    expect(res.body).toEqual(envelopeOf('I am a teapot'));
  });

  it('hides an internal error behind a generic 500 that carries the request id', async () => {
    const res = await request(app).get('/boom').set('X-Request-Id', 'abc-123');
    expect(res.status).toBe(500);
    expect(res.body).toEqual(envelopeOf('Internal server error (request id abc-123)'));
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('answers 405 in the envelope for a known path with the wrong method', async () => {
    const res = await request(app).delete('/echo');
    expect(res.status).toBe(405);
    expect(res.body.errorMessage).toMatch(/not allowed/);
  });

  it('gives every answer a request id, keeping a sane one sent by the client', async () => {
    const own = await request(app).get('/health/live');
    expect(own.headers['x-request-id']).toMatch(/\S+/);
    const given = await request(app).get('/health/live').set('X-Request-Id', 'trace-42');
    expect(given.headers['x-request-id']).toBe('trace-42');
    const hostile = await request(app).get('/health/live').set('X-Request-Id', 'x'.repeat(500));
    expect(hostile.headers['x-request-id']).not.toBe('x'.repeat(500));
  });

  it('opens CORS to any origin for GET, with preflight', async () => {
    const res = await request(app).get('/health/live').set('Origin', 'https://example.org');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const preflight = await request(app)
      .options('/echo')
      .set('Origin', 'https://example.org')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-methods']).toContain('GET');
  });
});

describe('readiness under a flood of checks', () => {
  const db = createDb(TEST_POSTGRES_URL, { max: 2 });
  const redis = createProducerRedis(TEST_REDIS_URL);
  // A producer connection refuses commands until it is up (no offline queue).
  beforeAll(async () => {
    if (redis.status !== 'ready') await once(redis, 'ready');
  });
  afterAll(async () => {
    await db.destroy();
    redis.disconnect();
  });

  it('asks Postgres once for many concurrent /health/ready calls, and again only once its answer is over a second old', async () => {
    let clock = 5000;
    const app = new Koa()
      .use(
        healthEndpoints(
          [
            { name: 'postgres', check: () => pingPostgres(db) },
            { name: 'redis', check: () => pingRedis(redis) },
          ],
          undefined,
          { now: () => clock },
        ),
      )
      .callback();
    let queries = 0;
    db.on('query', () => (queries += 1));
    const flood = await Promise.all(Array.from({ length: 50 }, () => request(app).get('/health/ready')));
    expect(flood.map((res) => res.status)).toEqual(Array(50).fill(200));
    expect(flood[49]!.body.payload).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
    expect(queries).toBe(1);
    clock += READINESS_MAX_AGE_MS;
    expect((await request(app).get('/health/ready')).status).toBe(200);
    expect(queries).toBe(1);
    clock += 1;
    await Promise.all(Array.from({ length: 20 }, () => request(app).get('/health/ready')));
    expect(queries).toBe(2);
  });
});

describe('health endpoints of both areas', () => {
  const config = loadConfig({ DATABASE_URL: TEST_POSTGRES_URL, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'silent' });
  const db = createDb(TEST_POSTGRES_URL, { max: 2 });
  const redis = createProducerRedis(TEST_REDIS_URL);
  const deadDb = createDb('postgres://postgres@127.0.0.1:1/nothing', { max: 1 });
  const deadRedis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  deadRedis.on('error', () => undefined);

  afterAll(async () => {
    await db.destroy();
    await deadDb.destroy();
    redis.disconnect();
    deadRedis.disconnect();
  });

  const registry = { snapshot: emptySnapshot(), staleReason: null };
  it.each([
    ['resolver', createResolverApp],
    ['registry', createRegistryApp],
  ])('the %s area is live and ready when Postgres and Redis answer', async (_name, create) => {
    const app = create({ config, db, redis, logger, registry }).callback();
    expect((await request(app).get('/health/live')).status).toBe(200);
    const ready = await request(app).get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.payload).toMatchObject({ status: 'ok', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('the registry area is not ready when Postgres is down, and says which one fails', async () => {
    const app = createRegistryApp({ config, db: deadDb, redis, logger }).callback();
    const ready = await request(app).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.errorMessage).toMatch(/postgres/);
    expect(ready.body.payload.checks.redis).toBe('ok');
  });

  it('the registry area is not ready when Redis is down, and says which one fails', async () => {
    const app = createRegistryApp({ config, db, redis: deadRedis, logger }).callback();
    const ready = await request(app).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.errorMessage).toMatch(/redis/);
    expect(ready.body.payload.checks.postgres).toBe('ok');
  });
});
