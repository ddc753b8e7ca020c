import Koa from 'koa';
import request from 'supertest';
import type { RegistryVersionSource } from '../../src/registry/model/registry-version.js';
import { answerFromCache, markSelfAsRequestUrl, ResponseCache } from '../../src/registry/rest-api/response-cache.js';

const HREF = 'https://registry.test/restApi/resources?size=1000';

/** A page of `count` items, as the browse routes build them (a self link the request's own URL). */
function page(count: number) {
  const resources = Array.from({ length: count }, (_, i) => ({
    id: i,
    name: `Resource "${i}" \u00e9\u0000`,
    _links: { self: { href: `https://registry.test/restApi/resources/${i}` } },
  }));
  return { _embedded: { resources }, _links: { self: { href: HREF } }, page: { size: 1000, totalElements: count, totalPages: 1, number: 0 } };
}

function appAnswering(body: () => object) {
  const versions = { read: () => Promise.resolve('v1') } as unknown as RegistryVersionSource;
  const app = new Koa();
  app.use(answerFromCache(versions, new ResponseCache(), () => HREF));
  app.use((ctx) => {
    markSelfAsRequestUrl(ctx, HREF);
    ctx.type = 'application/hal+json';
    ctx.body = body();
  });
  return app.callback();
}

describe('large browse pages', () => {
  it('answers a page of 1,000 items with exactly the JSON of the page, first written and then from the cache', async () => {
    const app = appAnswering(() => page(1000));
    const expected = JSON.stringify(page(1000));
    const first = await request(app).get('/restApi/resources?size=1000');
    const cached = await request(app).get('/restApi/resources?size=1000');
    expect(first.text).toBe(expected);
    expect(cached.text).toBe(expected);
    expect(cached.headers.etag).toBe(first.headers.etag);
  });
});
