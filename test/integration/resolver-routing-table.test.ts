import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Router } from '@koa/router';
import type Koa from 'koa';
import type { FrontedKoa } from '../../src/http/base-app.js';
import { REGISTRY_LINK_PATHS } from '../../src/resolver/registry-links.routes.js';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';

/** Every route of the routers mounted on the app, as a path a client could ask for (parameters filled in). */
function mountedRoutePaths(koa: Koa): string[] {
  const routers = koa.middleware.flatMap((middleware) => {
    const router = (middleware as { router?: Router }).router;
    return router ? [router] : [];
  });
  const paths = routers.flatMap((router) => router.stack.flatMap((layer) => (typeof layer.path === 'string' ? [layer.path] : [])));
  return [...new Set(paths)].map((path) => path.replace(/\{\*?\w+\}|[:*]\w+(\([^)]*\))?|\(\.\*\)/g, 'x'));
}

/** Whether the front handler hands the request to Koa (false from it) rather than answering it itself. */
function handedToKoa(koa: Koa, method: string, path: string): boolean {
  const req = new IncomingMessage(new Socket());
  req.method = method;
  req.url = path;
  return !(koa as FrontedKoa).front(req, new ServerResponse(req));
}

// The front handler reads every GET and HEAD path it does not know as Koa's as a compact identifier
// (front-handler.ts): a route mounted without its path in the table (koa-paths.ts, gathered in app.ts)
// would be answered as a failed resolution.
describe('the resolver\'s routing table', () => {
  let r: ResolverUnderTest;
  beforeAll(async () => {
    r = await startResolver('resolver_routing_table');
  });
  afterAll(() => r.close());

  it('reads a compact identifier as one (the check below is not vacuous)', () => {
    expect(handedToKoa(r.koa, 'GET', '/taxonomy:9606')).toBe(false);
  });

  it('hands every path of every mounted router to Koa, on GET and HEAD', () => {
    const paths = mountedRoutePaths(r.koa);
    expect(paths).toEqual(expect.arrayContaining(['/mcp', '/resolve/batch', '/reverse/batch', '/openapi.json']));
    const resolved = paths.flatMap((path) => ['GET', 'HEAD'].filter((method) => !handedToKoa(r.koa, method, path)).map((method) => `${method} ${path}`));
    expect(resolved).toEqual([]);
  });

  it('hands the pages matched by prefix (MIR ids, landing pages) to Koa', () => {
    const pages = REGISTRY_LINK_PATHS.map(({ path }) => `${path}taxonomy:9606`);
    expect(pages.filter((path) => !handedToKoa(r.koa, 'GET', path))).toEqual([]);
  });
});
