import { Router } from '@koa/router';
import { sendPage } from '../../web/render-page.js';
import type { CurationWarningsOverview } from '../model/curation-warnings.js';
import { intParam } from '../model/search-params.js';
import { MAX_DESK_PAGE, NO_STORE, type DeskKit } from './desk-kit.js';
import { WARNINGS_PAGE_SIZE, WARNINGS_PATH, WarningsPage } from './pages/warnings.page.js';

export interface DeskWarningsRouteDeps {
  kit: DeskKit;
  warnings: CurationWarningsOverview;
}

/** `/curation/warnings`: the open curation warnings by namespace and institution, a page of targets at a time. */
export function deskWarningsRoutes(deps: DeskWarningsRouteDeps): Router {
  const { kit, warnings } = deps;
  const router = new Router();
  router.get(WARNINGS_PATH, ...kit.signedIn, async (ctx) => {
    const overview = await warnings.overview(intParam(ctx.query.page, 0, 0, MAX_DESK_PAGE), WARNINGS_PAGE_SIZE);
    sendPage(ctx, <WarningsPage desk={kit.context(ctx)} overview={overview} />, { cacheControl: NO_STORE });
  });
  return router;
}
