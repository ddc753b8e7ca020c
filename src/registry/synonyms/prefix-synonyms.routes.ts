import { Router } from '@koa/router';
import type { Db } from '../../db/knex.js';
import { readAllSynonymsByPrefix } from '../../db/namespace-synonyms.js';
import { sendCacheableJson } from '../../http/conditional-get.js';

export interface PrefixSynonymRoutesDeps {
  /** Where the list is read (the browse API's database: the replica when there is one). */
  db: Db;
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
    const body = Object.fromEntries(await readAllSynonymsByPrefix(deps.db));
    sendCacheableJson(ctx, body, MAX_AGE_SECONDS);
  });
  return router;
}
