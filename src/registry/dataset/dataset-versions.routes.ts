import { Router } from '@koa/router';
import { invalid } from '../../core/domain-error.js';
import { datasetDiffAnswer } from './dataset-diff.presenter.js';
import type { DatedDatasetService } from './dated-dataset.service.js';

export interface DatasetVersionRouteDeps {
  dated: DatedDatasetService;
}

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * GET /resolutionApi/diff?from=YYYY-MM-DD&to=YYYY-MM-DD|current: namespaces and resources added, removed
 * and changed (field by field) between two dataset versions. (getResolverDataset?version= is answered by
 * dataset.routes.ts, next to the current dataset.)
 */
export function datasetVersionRoutes(deps: DatasetVersionRouteDeps): Router {
  const router = new Router();
  router.get('/resolutionApi/diff', async (ctx) => {
    const from = single(ctx.query.from);
    const to = single(ctx.query.to);
    if (!from || !to) throw invalid("'from' and 'to' are required: dates YYYY-MM-DD of dataset versions, or 'current'");
    const answer = datasetDiffAnswer(await deps.dated.diff(from, to, ctx.ip));
    ctx.set('Cache-Control', 'public, max-age=60');
    ctx.type = 'application/json';
    ctx.body = answer;
  });
  return router;
}
