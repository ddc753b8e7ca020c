/**
 * Every answer of both areas carries X-Content-Type-Options: nosniff (issue 10, item 9): JSON and HAL
 * answers, errors, and the resolver's answers written ahead of Koa by its front handler.
 */
import type { RequestListener } from 'node:http';
import type { Redis } from 'ioredis';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { emptySnapshot } from '../../src/core/registry-snapshot.js';
import { createDb, type Db } from '../../src/db/knex.js';
import { createLogger } from '../../src/lib/logger.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { createRegistryApp } from '../../src/registry/app.js';
import { createResolverApp } from '../../src/resolver/app.js';
import { TEST_POSTGRES_URL, TEST_REDIS_URL } from '../support/test-database.js';

const logger = createLogger('silent', 'test');

describe('X-Content-Type-Options: nosniff', () => {
  let db: Db;
  let redis: Redis;
  let registry: RequestListener;
  let resolver: RequestListener;

  beforeAll(() => {
    const config = loadConfig({ DATABASE_URL: TEST_POSTGRES_URL, REDIS_URL: TEST_REDIS_URL, LOG_LEVEL: 'silent' });
    db = createDb(TEST_POSTGRES_URL, { max: 2 });
    redis = createProducerRedis(TEST_REDIS_URL);
    registry = createRegistryApp({ config, db, redis, logger }).callback();
    resolver = createResolverApp({ config, db, redis, logger, registry: { snapshot: emptySnapshot(), staleReason: null } }).callback();
  });

  afterAll(async () => {
    await db.destroy();
    redis.disconnect();
  });

  it.each([
    ['registry', 'GET', '/health/live'],
    ['registry', 'GET', '/no/such/endpoint'],
    ['registry', 'POST', '/prefixRegistrationApi/acceptPrefixRegistrationRequest/1'],
    ['resolver', 'GET', '/GO:0006915'],
    ['resolver', 'GET', '/health/live'],
    ['resolver', 'POST', '/reverse/byPrefix'],
    ['resolver', 'DELETE', '/GO:0006915'],
  ])('is on the %s answer to %s %s', async (area, method, path) => {
    const app = area === 'registry' ? registry : resolver;
    const call = method === 'GET' ? request(app).get(path) : method === 'POST' ? request(app).post(path).send('{"payload":') : request(app).delete(path);

    const res = await call;

    expect(res.headers['content-type']).toMatch(/json/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
