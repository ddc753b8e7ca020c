import { Router } from '@koa/router';
import { BATCH_JSON_LIMIT, jsonBody } from '../http/json-body.js';
import type { KoaPath } from '../http/koa-paths.js';
import { chargeMore } from '../http/rate-limit-middleware.js';
import type { Logger } from '../lib/logger.js';
import { BatchAnswer } from './batch-answer.js';
import { readBatchList } from './batch-request.js';
import { countHeavyRequest, type HeavyWork } from './heavy-work.js';
import type { SnapshotSource } from './snapshot-source.js';
import type { ResolutionCounter } from './front-handler.js';

export interface BatchDeps {
  registry: SnapshotSource;
  publicRegistryUrl: string;
  count?: ResolutionCounter;
  /** The per-client cap and fair scheduling of heavy requests. */
  heavy: HeavyWork;
  logger: Logger;
}

/**
 * POST /resolve/batch (not in the reference; users ask for it): each item answered exactly as the single
 * GET would answer it, with that call's HTTP status, in input order, all against one snapshot. A heavy
 * request: counted against the client's cap and written a slice at a time (see batch-answer.ts).
 */
/** Koa's paths (koa-paths.ts); whatever follows /resolve/batch is no compact identifier either. */
export const BATCH_PATHS: readonly KoaPath[] = [{ path: '/resolve/batch', under: true }];

export function batchRoutes(deps: BatchDeps): Router {
  const router = new Router();
  router.post('/resolve/batch', countHeavyRequest(deps.heavy), jsonBody(BATCH_JSON_LIMIT), async (ctx) => {
    const identifiers = readBatchList(ctx.request.body, 'compactIdentifiers');
    // The batch family counts items: the request counted one, its other items count now.
    await chargeMore(ctx, identifiers.length - 1);
    const count = deps.count && ctx.get('DNT') !== '1' ? deps.count : undefined;
    const client = ctx.ip;
    const userAgent = ctx.get('User-Agent');
    const answer = new BatchAnswer({
      identifiers,
      snapshot: deps.registry.snapshot,
      publicRegistryUrl: deps.publicRegistryUrl,
      countResolution: count && ((prefix) => count(prefix, client, userAgent)),
      heavy: deps.heavy,
      client,
    });
    // Headers are gone once the first slice is written: a failure later can only cut the connection.
    answer.once('error', (error) => deps.logger.error({ err: error, requestId: ctx.state.requestId }, 'batch answer failed'));
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = answer;
  });
  return router;
}
