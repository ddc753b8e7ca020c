import { Router } from '@koa/router';
import { badRequest } from '../../http/http-error.js';
import type { EbiDatasetAnswers } from './ebi-dataset-answers.js';
import { firstValue } from '../model/paging.js';
import { EBI_SEARCH_DOMAIN, parseEbiFields, presentEbiSearch } from './ebi-search.presenter.js';
import { MAX_SEARCH_LIMIT, type NamespaceSearch } from '../model/namespace-search.service.js';
import { presentSuggestions } from './search.presenter.js';
import { intParam, luceneText, textParam } from '../model/search-params.js';

export interface SearchDeps {
  search: NamespaceSearch;
  /** The EBI Search export's answers (ebi-dataset-answers.ts). */
  ebiDataset: EbiDatasetAnswers;
  publicResolverUrl: string;
  publicRegistryUrl: string;
}

const SUGGESTIONS = 10;
// EBI Search's default page size.
const EBI_DEFAULT_SIZE = 15;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The registry search as JSON: /registry/search (the pages' suggestions), the same search in EBI Search's
 * REST shape at /ebisearch/ws/rest/identifiers_registry (for the reference's web app), and the registry's
 * EBI Search export, /registryInsightApi/getEbiSearchDataset.
 */
export function searchRoutes(deps: SearchDeps): Router {
  const router = new Router();

  router.get('/registry/search', async (ctx) => {
    const size = intParam(ctx.query.size, SUGGESTIONS, 1, MAX_SEARCH_LIMIT);
    const page = intParam(ctx.query.page, 0, 0, 1_000_000);
    const result = await deps.search.search(textParam(ctx.query.q), page * size, size);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = presentSuggestions(result);
  });

  router.get(`/ebisearch/ws/rest/${EBI_SEARCH_DOMAIN}`, async (ctx) => {
    const format = textParam(ctx.query.format).toLowerCase();
    if (format !== '' && format !== 'json') throw badRequest(`Format '${format}' is not served; use format=JSON`);
    const size = intParam(ctx.query.size, EBI_DEFAULT_SIZE, 0, MAX_SEARCH_LIMIT);
    const start = intParam(ctx.query.start, 0, 0, 1_000_000_000);
    const result = await deps.search.search(luceneText(textParam(ctx.query.query)), start, Math.max(size, 1));
    const answer = presentEbiSearch(size === 0 ? { ...result, hits: [] } : result, parseEbiFields(firstValue(ctx.query.fields)));
    ctx.body = answer;
  });

  router.get('/registryInsightApi/getEbiSearchDataset', async (ctx) => {
    const start = firstValue(ctx.query.start);
    if (start !== undefined && (!DAY.test(start) || Number.isNaN(Date.parse(`${start}T00:00:00Z`)))) {
      throw badRequest("'start' must be a date written yyyy-MM-dd");
    }
    const answer = await deps.ebiDataset(start ?? null);
    if (!answer) {
      ctx.status = 204;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = answer;
  });
  return router;
}
