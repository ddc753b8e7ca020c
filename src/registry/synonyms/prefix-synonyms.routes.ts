import { Router } from '@koa/router';
import { sendCacheableJson } from '../../http/conditional-get.js';
import type { PrefixSynonymsService } from './prefix-synonyms.service.js';

export interface PrefixSynonymRoutesDeps {
  synonyms: PrefixSynonymsService;
}

/** As the dataset's: clients poll it, and a change shows within a minute. */
const MAX_AGE_SECONDS = 60;

/**
 * GET /resolutionApi/getPrefixSynonyms (issue 15 item 1): every namespace's synonyms as the extension
 * file the importer reads, `{ "taxonomy": ["NCBITaxon", "taxon"], ... }`, prefixes and synonyms sorted,
 * namespaces without synonyms left out, read from Postgres with a strong ETag of the text (304 for a
 * client that holds it). An extension: the reference dataset (getResolverDataset) is unchanged.
 */
export function prefixSynonymRoutes(deps: PrefixSynonymRoutesDeps): Router {
  const router = new Router();
  router.get('/resolutionApi/getPrefixSynonyms', async (ctx) => {
    sendCacheableJson(ctx, await deps.synonyms.exportFile(), MAX_AGE_SECONDS);
  });
  return router;
}
