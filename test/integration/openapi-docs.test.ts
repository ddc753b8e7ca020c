/**
 * /openapi.json and /docs on both areas: the document of the area with its public URL, the docs page with
 * no inline script and no outside address, each of its files answering 200 with a year-long cache, and the
 * docs counted as browsing (the resolver's resolution limit does not touch them).
 */
import request from 'supertest';
import { startBothAreas, startStack, type AreaStack, type BothAreas } from '../support/areas.js';

let t: BothAreas;

beforeAll(async () => {
  t = await startBothAreas('openapi_docs');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** The files a page links: stylesheets and scripts. */
function linkedFiles(html: string): string[] {
  return [...html.matchAll(/<(?:link[^>]*href|script[^>]*src)="([^"]+)"/g)].map((m) => m[1]!);
}

describe.each(['resolver', 'registry'] as const)('the %s area', (area) => {
  it('serves its OpenAPI 3.1 document at /openapi.json, with its public URL as the server', async () => {
    const res = await t[area].send({ method: 'GET', path: '/openapi.json' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const document = JSON.parse(res.text) as { openapi: string; servers: { url: string }[]; paths: object };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]!.url).toBe(t.config[area === 'resolver' ? 'PUBLIC_RESOLVER_URL' : 'PUBLIC_REGISTRY_URL']);
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/openapi.json', '/docs', '/health/ready']));
  });

  it('serves the docs page, whose files all answer 200 and are cached for a year', async () => {
    const res = await t[area].send({ method: 'GET', path: '/docs', headers: { Accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // No inline script (a CSP without 'unsafe-inline' allows the page) and nothing from elsewhere (no CDN).
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(res.text).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    const files = linkedFiles(res.text);
    expect(files.map((f) => f.replace(/\?v=.*/, ''))).toEqual(['/docs/assets/swagger-ui.css', '/docs/assets/swagger-ui-bundle.js', '/docs/assets/swagger-initializer.js']);
    for (const file of files) {
      const asset = await t[area].send({ method: 'GET', path: file });
      expect({ file, status: asset.status, cache: asset.headers['cache-control'] }).toEqual({ file, status: 200, cache: 'public, max-age=31536000, immutable' });
      expect(asset.headers['content-type']).toMatch(file.includes('.css') ? /^text\/css/ : /^text\/javascript/);
    }
    const initializer = await t[area].send({ method: 'GET', path: files[2]! });
    expect(initializer.text).toContain("'openapi.json'");
  });

  it('sends /docs/ to the docs page at /docs, where the page finds its document', async () => {
    const res = await t[area].send({ method: 'GET', path: '/docs/', headers: { Accept: 'text/html' } });
    expect([res.status, res.headers.location]).toEqual([301, '/docs']);
  });

  it('serves only the docs page\'s own files of the package', async () => {
    for (const name of ['index.html', 'swagger-ui-bundle.js.map', 'swagger-ui-es-bundle.js', '..%2Fpackage.json']) {
      expect((await t[area].send({ method: 'GET', path: `/docs/assets/${name}` })).status).toBe(404);
    }
  });
});

describe('the docs under the rate limits', () => {
  let stack: AreaStack;

  beforeAll(async () => {
    stack = await startStack('openapi_docs_limits', { data: 'none' });
  }, 60_000);

  afterAll(async () => {
    await stack?.close();
  });

  it('counts the resolver\'s docs as browsing, not as resolutions', async () => {
    const { koa } = await stack.resolverApp({ env: { RATE_LIMITS: 'true', RATE_LIMIT_RESOLUTION: '1', RATE_LIMIT_BROWSE: '100' } });
    const app = koa.callback();
    const statuses = [];
    for (const path of ['/docs', '/openapi.json', '/docs', '/openapi.json']) statuses.push((await request(app).get(path)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const first = await request(app).get('/nosuchprefix:1');
    expect(first.status).not.toBe(429);
    expect((await request(app).get('/nosuchprefix:1')).status).toBe(429);
    // The resolutions' limit reached, the docs still answer.
    expect((await request(app).get('/docs')).status).toBe(200);
  });

  it('limits the docs as the registry\'s browse pages', async () => {
    const app = stack.registryApp({ env: { RATE_LIMITS: 'true', RATE_LIMIT_BROWSE: '2' } }).callback();
    const statuses = [];
    for (const path of ['/docs', '/openapi.json', '/docs']) statuses.push((await request(app).get(path)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
