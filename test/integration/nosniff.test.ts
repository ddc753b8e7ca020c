/**
 * Every answer of both areas carries X-Content-Type-Options: nosniff (issue 10, item 9): JSON and HAL
 * answers, errors, and the resolver's answers written ahead of Koa by its front handler.
 */
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { emptySnapshot } from '../../src/core/registry-snapshot.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';

describe('X-Content-Type-Options: nosniff', () => {
  let t: RegistryUnderTest;
  let registry: RequestListener;
  let resolver: RequestListener;

  beforeAll(async () => {
    t = await startRegistry('nosniff', { data: 'none' });
    registry = t.app;
    resolver = (await t.resolverApp({ registry: { snapshot: emptySnapshot(), staleReason: null } })).koa.callback();
  });
  afterAll(() => t.close());

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
