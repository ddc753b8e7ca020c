/**
 * Issue 14 item 5: HTTP caching for a CDN. Resolution answers carry an entity tag of the registry snapshot
 * (and the providers' ranking), Cache-Control with RESOLVER_CACHE_MAX_AGE and Vary: Accept, and a JSON
 * answer the client holds is a 304; failed resolutions are cached briefly and without a tag. The registry's
 * HAL answers carry an entity tag of their content, the same from every registry process, and 304 too.
 */
import type { RequestListener } from 'node:http';
import request from 'supertest';
import type { SnapshotSource } from '../../src/resolver/snapshot-source.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { waitFor } from '../support/wait.js';

const ID = '/taxonomy:9606';
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const TAG = /^W\/"\d+-[\w-]+-[\w-]+-[jr]"$/;

describe('HTTP caching', () => {
  let t: AreaStack;
  let app: RequestListener;
  beforeAll(async () => {
    t = await startStack('http_caching');
    app = (await t.resolverApp()).koa.callback();
  });
  afterAll(() => t.close());

  describe('of resolution answers', () => {
    it('tags a JSON answer, lets any cache keep it RESOLVER_CACHE_MAX_AGE, and says it varies by Accept', async () => {
      const res = await request(app).get(ID);
      expect(res.status).toBe(200);
      expect(res.headers.etag).toMatch(TAG);
      expect(res.headers.etag).toMatch(/-j"$/);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.headers.vary).toBe('Accept');
      // A shared cache gives the answer to pages on other origins too.
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const again = await request(app).get(ID);
      expect(again.headers.etag).toBe(res.headers.etag);
    });

    it('answers 304 without a body to If-None-Match naming the answer, by the weak comparison', async () => {
      const { etag } = (await request(app).get(ID)).headers as { etag: string };
      const strong = etag.slice(2);
      for (const given of [etag, strong, `"other", ${etag}`, '*']) {
        const res = await request(app).get(ID).set('If-None-Match', given);
        expect(res.status).toBe(304);
        expect(res.text ?? '').toBe('');
        expect(res.headers.etag).toBe(etag);
        expect(res.headers['cache-control']).toBe('public, max-age=300');
        expect(res.headers.vary).toBe('Accept');
      }
      const head = await request(app).head(ID).set('If-None-Match', etag);
      expect(head.status).toBe(304);
      const other = await request(app).get(ID).set('If-None-Match', 'W/"1-x-y-j"');
      expect(other.status).toBe(200);
      expect(other.body.payload.resolvedResources.length).toBeGreaterThan(0);
      // Every identifier of a snapshot shares the tag: a tag is only compared for the URL it came with.
      expect((await request(app).get('/GO:0006915').set('If-None-Match', etag)).status).toBe(304);
    });

    it('tags a redirect apart from the JSON, and answers it whole to If-None-Match (only a 2xx is conditional)', async () => {
      const json = await request(app).get(ID);
      const redirect = await request(app).get(ID).set('Accept', BROWSER);
      expect(redirect.status).toBe(302);
      expect(redirect.headers.etag).toMatch(/-r"$/);
      expect(redirect.headers.etag).not.toBe(json.headers.etag);
      expect(redirect.headers['cache-control']).toBe('public, max-age=300');
      expect(redirect.headers.vary).toBe('Accept');
      const again = await request(app).get(ID).set('Accept', BROWSER).set('If-None-Match', redirect.headers.etag!);
      expect(again.status).toBe(302);
      expect(again.headers.location).toBe(redirect.headers.location);
      expect((await request(app).get(`${ID}?redirect=true`)).headers.etag).toBe(redirect.headers.etag);
    });

    it('keeps a failed resolution briefly and without a tag, JSON or page alike', async () => {
      for (const [path, accept, status] of [
        ['/nosuchprefix:1', 'application/json', 400],
        ['/taxonomy:not-a-number', 'application/json', 400],
        ['/nosuchprefix:1', BROWSER, 404],
      ] as const) {
        const res = await request(app).get(path).set('Accept', accept).set('If-None-Match', '*');
        expect(res.status).toBe(status);
        expect(res.headers.etag).toBeUndefined();
        expect(res.headers['cache-control']).toBe('public, max-age=60');
        expect(res.headers.vary).toBe('Accept');
      }
    });

    it('takes the ages from RESOLVER_CACHE_MAX_AGE and RESOLVER_ERROR_CACHE_MAX_AGE (0: no-store)', async () => {
      const own = (await t.resolverApp({ env: { RESOLVER_CACHE_MAX_AGE: '42', RESOLVER_ERROR_CACHE_MAX_AGE: '0' } })).koa.callback();
      expect((await request(own).get(ID)).headers['cache-control']).toBe('public, max-age=42');
      expect((await request(own).get('/nosuchprefix:1')).headers['cache-control']).toBe('no-store');
    });

    it('gives a new tag once the registry changes, and the old one gets the whole answer', async () => {
      const before = (await request(app).get(ID)).headers.etag!;
      await t.db('namespaces').where({ prefix: 'taxonomy' }).update({ description: 'Changed for the caching test, so that the snapshot moves on.' });
      const after = await waitFor(
        async () => {
          const tag = (await request(app).get(ID)).headers.etag;
          return tag !== before && tag;
        },
        { timeoutMs: 5000, what: 'a new ETag after the registry change' },
      );
      expect(after).toMatch(TAG);
      expect((await request(app).get(ID).set('If-None-Match', before)).status).toBe(200);
      expect((await request(app).get(ID).set('If-None-Match', after)).status).toBe(304);
    });

    it('gives a new tag when the providers are ranked again at the same snapshot version', async () => {
      const { store } = await t.resolverApp();
      let rankingTag = 'first';
      const source: SnapshotSource = {
        get snapshot() {
          return store!.snapshot;
        },
        staleReason: null,
        get rankingTag() {
          return rankingTag;
        },
      };
      const ranked = (await t.resolverApp({ registry: source })).koa.callback();
      const first = (await request(ranked).get(ID)).headers.etag!;
      rankingTag = 'second';
      const second = (await request(ranked).get(ID)).headers.etag!;
      expect(second).not.toBe(first);
      expect((await request(ranked).get(ID).set('If-None-Match', first)).status).toBe(200);
    });
  });

  describe('of the registry\'s HAL answers', () => {
    it('tags them by content, the same in every registry process, and answers 304', async () => {
      const one = t.registryApp().callback();
      const two = t.registryApp().callback();
      for (const path of ['/restApi/namespaces?size=5', '/restApi/namespaces/search/findByPrefix?prefix=taxonomy', '/restApi']) {
        const first = await request(one).get(path);
        expect(first.status).toBe(200);
        expect(first.headers.etag).toMatch(/^W\/"h-[\w-]+"$/);
        // Once answered, once from the answer cache; and from another process.
        expect((await request(one).get(path)).headers.etag).toBe(first.headers.etag);
        expect((await request(two).get(path)).headers.etag).toBe(first.headers.etag);
        const notModified = await request(two).get(path).set('If-None-Match', first.headers.etag!);
        expect(notModified.status).toBe(304);
        expect(notModified.text ?? '').toBe('');
        expect((await request(one).get(path).set('If-None-Match', '"h-other"')).status).toBe(200);
      }
    });

    it('answers 304 to If-Modified-Since on an item with Last-Modified', async () => {
      const registry = t.registryApp().callback();
      const item = await request(registry).get('/restApi/namespaces/1');
      expect(item.status).toBe(200);
      expect(item.headers['last-modified']).toBeDefined();
      const since = await request(registry).get('/restApi/namespaces/1').set('If-Modified-Since', item.headers['last-modified']!);
      expect(since.status).toBe(304);
    });

    it('gives a new tag once the registry changes', async () => {
      const registry = t.registryApp().callback();
      const path = '/restApi/namespaces/search/findByPrefix?prefix=ncbigene';
      const before = await request(registry).get(path);
      expect(before.status).toBe(200);
      await t.db('namespaces').where({ prefix: 'ncbigene' }).update({ name: 'NCBI Gene, renamed for the caching test' });
      const after = await waitFor(
        async () => {
          const res = await request(registry).get(path);
          return res.headers.etag !== before.headers.etag && res;
        },
        { timeoutMs: 15_000, what: 'a new HAL ETag after the registry change' },
      );
      expect(after.body.name).toBe('NCBI Gene, renamed for the caching test');
      expect((await request(registry).get(path).set('If-None-Match', before.headers.etag!)).status).toBe(200);
    });
  });
});
