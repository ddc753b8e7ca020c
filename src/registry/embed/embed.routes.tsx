import { Router } from '@koa/router';
import { sendPage } from '../../web/render-page.js';
import type { Site } from '../../web/site.js';
import { EmbedPage } from './embed.page.js';
import { EMBED_PATH, EMBED_SCRIPT, EMBED_SCRIPT_PATH, embedAssets } from './embed-script.js';

/**
 * The search box other sites embed: its script at a stable address, and the page showing how to embed it.
 * Both answer any origin (the area's open CORS); the script also says so to pages that require it
 * (Cross-Origin-Embedder-Policy: require-corp).
 */
export function embedRoutes({ site }: { site: Site }): Router {
  const assets = embedAssets();
  const router = new Router();
  router.get(EMBED_SCRIPT_PATH, (ctx) => {
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    assets.answer(ctx, EMBED_SCRIPT);
  });
  router.get(EMBED_PATH, (ctx) => {
    sendPage(ctx, <EmbedPage site={site} scriptUrl={assets.url(EMBED_SCRIPT)} size={assets.size(EMBED_SCRIPT)} />);
  });
  return router;
}
