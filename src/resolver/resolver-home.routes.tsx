import { Router } from '@koa/router';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { prefersHtml } from '../web/negotiation.js';
import { sendPage } from '../web/render-page.js';
import type { Site } from '../web/site.js';
import { exampleCompactId } from '../core/resolution-advice.js';
import { ResolverHomePage } from './resolver-home.page.js';

/**
 * GET / : the page for a browser (Accept preferring text/html); every other client goes on to the answer it
 * always had (404 in the envelope), and both say `Vary: Accept`.
 */
export function resolverHomeRoutes(deps: { site: Site; snapshot: () => RegistrySnapshot }): Router {
  const router = new Router();
  router.get('/', (ctx, next) => {
    ctx.vary('Accept');
    if (!prefersHtml(ctx.req)) return next();
    sendPage(ctx, <ResolverHomePage site={deps.site} example={exampleCompactId(deps.snapshot())} />);
  });
  return router;
}
