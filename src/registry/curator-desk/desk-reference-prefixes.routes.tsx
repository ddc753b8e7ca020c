import { Router } from '@koa/router';
import type { PrefixListFormat } from '../../core/reference-prefix-list.js';
import type { FormFields } from '../../http/form-body.js';
import { sendPage } from '../../web/render-page.js';
import { REFERENCE_LIST_FORM_LIMIT, type ReferencePrefixesService } from './reference-prefixes.service.js';
import type { DeskKit } from './desk-kit.js';
import { NO_STORE } from './desk-kit.js';
import { REFERENCE_PREFIXES_PATH, ReferencePrefixesPage } from './pages/reference-prefixes.page.js';

export interface DeskReferencePrefixRouteDeps {
  kit: DeskKit;
  referencePrefixes: ReferencePrefixesService;
}

const FORMATS = new Set(['json', 'tsv', 'csv']);

/**
 * `/curation/reference-prefixes` (issue 15 item 6): the other registries' prefix lists, and the form that
 * loads one, answered 303 back to the page with what was loaded, or the page again with the refusal next
 * to its field.
 */
export function deskReferencePrefixRoutes(deps: DeskReferencePrefixRouteDeps): Router {
  const { kit, referencePrefixes } = deps;
  const router = new Router();

  router.get(REFERENCE_PREFIXES_PATH, ...kit.signedIn, async (ctx) => {
    const loaded = typeof ctx.query.loaded === 'string' ? ctx.query.loaded.slice(0, 200) : undefined;
    sendPage(ctx, <ReferencePrefixesPage desk={kit.context(ctx)} sources={await referencePrefixes.sources()} notice={loaded && `Loaded: ${loaded}.`} />, {
      cacheControl: NO_STORE,
    });
  });

  router.post(REFERENCE_PREFIXES_PATH, ...kit.formWithin(REFERENCE_LIST_FORM_LIMIT), async (ctx) => {
    const posted = ctx.request.body as FormFields;
    const format = FORMATS.has(posted.format ?? '') ? (posted.format as PrefixListFormat) : null;
    const outcome = await referencePrefixes.load(posted.source ?? '', posted.list ?? '', format);
    if (!outcome.ok) {
      const form = { source: posted.source ?? '', format: posted.format ?? '', list: posted.list ?? '', errors: outcome.errors };
      sendPage(ctx, <ReferencePrefixesPage desk={kit.context(ctx)} sources={await referencePrefixes.sources()} form={form} />, {
        status: 422,
        cacheControl: NO_STORE,
      });
      return;
    }
    ctx.status = 303;
    ctx.redirect(`${REFERENCE_PREFIXES_PATH}?loaded=${encodeURIComponent(`${outcome.loaded} prefixes of ${outcome.source}`)}`);
  });
  return router;
}
