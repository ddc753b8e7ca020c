import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { KoaPath } from '../http/koa-paths.js';
import type { SnapshotSource } from './snapshot-source.js';
import { presentSampleResolutions } from './insight.presenter.js';

/**
 * The reference's insight API (spec §4.2), from the snapshot: `get_all_sample_ids_resolved` and
 * `get_all_home_urls` answer the same (the home URL is in each item), as in the reference.
 */
/** Koa's paths (koa-paths.ts): the insight API and its unknown endpoints (404 in the envelope). */
export const INSIGHT_PATHS: readonly KoaPath[] = [{ path: '/insightApi/', under: true }];

export function insightRoutes(deps: { registry: SnapshotSource }): Router {
  const router = new Router({ prefix: '/insightApi' });
  const answer = (ctx: Context) => {
    const { status, json } = presentSampleResolutions(deps.registry.snapshot);
    ctx.status = status;
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = json;
  };
  router.get('/get_all_sample_ids_resolved', answer);
  router.get('/get_all_home_urls', answer);
  return router;
}
