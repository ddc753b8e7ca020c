import { Router } from '@koa/router';
import { prefersHtml } from '../../web/negotiation.js';
import { sendPage, servingPage } from '../../web/render-page.js';
import type { Site } from '../../web/site.js';
import type { NamespaceSearch } from '../model/namespace-search.service.js';
import { firstValue } from '../model/paging.js';
import { intParam, textParam } from '../model/search-params.js';
import { HomePage } from './home.page.js';
import { NamespacePage } from './namespace.page.js';
import { UnknownNamespacePage } from './not-found.page.js';
import type { RegistryPagesService } from './registry-pages.service.js';
import type { ReverseAnswer } from './reverse-lookup.service.js';
import { ReversePage } from './reverse.page.js';
import { pageSizeOf, SearchPage } from './search.page.js';

export interface PagesDeps {
  site: Site;
  pages: RegistryPagesService;
  search: NamespaceSearch;
  /** The reverse box's lookup (reverse-lookup.service.ts). */
  lookUpUrl: (url: string) => Promise<ReverseAnswer>;
}

// Deep pages of a search are reachable by their links; a page number beyond this is junk.
const MAX_PAGE = 100_000;

/**
 * The registry's pages for people. On the paths it shares with the APIs (`/`, `/registry/{prefix}`) a
 * browser gets the page and every other client goes on to today's answer (see negotiation.ts); each answer
 * there varies by Accept. Mounted ahead of the routes it shares paths with.
 */
export function pagesRoutes(deps: PagesDeps): Router {
  const { site } = deps;
  const router = new Router();

  router.get('/', async (ctx, next) => {
    ctx.vary('Accept');
    if (!prefersHtml(ctx.req)) return next();
    servingPage(ctx);
    sendPage(ctx, <HomePage site={site} home={await deps.pages.home()} />);
  });

  router.get('/registry', async (ctx, next) => {
    ctx.vary('Accept');
    if (!prefersHtml(ctx.req)) return next();
    servingPage(ctx);
    const page = intParam(ctx.query.page, 0, 0, MAX_PAGE);
    const size = pageSizeOf(firstValue(ctx.query.size));
    const result = await deps.search.search(textParam(ctx.query.q), page * size, size);
    sendPage(ctx, <SearchPage site={site} result={result} />);
  });

  router.get('/registry/:prefix', async (ctx, next) => {
    ctx.vary('Accept');
    if (!prefersHtml(ctx.req)) return next();
    servingPage(ctx);
    const prefix = ctx.params.prefix ?? '';
    const data = await deps.pages.namespacePage(prefix);
    if (!data) {
      // A synonym's page is its namespace's (issue 15 item 1).
      const canonical = await deps.pages.prefixOfSynonym(prefix);
      if (canonical !== undefined) {
        ctx.status = 301;
        ctx.redirect(`/registry/${encodeURIComponent(canonical)}`);
        return;
      }
      const suggestions = await deps.pages.nearestPrefixes(prefix);
      sendPage(ctx, <UnknownNamespacePage site={site} prefix={prefix} suggestions={suggestions} />, { status: 404 });
      return;
    }
    sendPage(ctx, <NamespacePage site={site} data={data} />);
  });

  // The home page's resolve box: a form can only send the identifier as a parameter, the resolver takes it
  // in the path.
  router.get('/resolve', (ctx) => {
    const id = textParam(ctx.query.id).trim();
    ctx.status = 302;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(id === '' ? '/' : `${site.publicResolverUrl}/${encodeURI(id).replace(/[?#]/g, encodeURIComponent)}`);
  });

  router.get('/reverse-lookup', async (ctx) => {
    servingPage(ctx);
    const url = textParam(ctx.query.url);
    sendPage(ctx, <ReversePage site={site} url={url} answer={await deps.lookUpUrl(url)} />, { status: url.trim() === '' ? 400 : 200 });
  });
  return router;
}
