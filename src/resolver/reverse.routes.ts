import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import {
  parseReverseLookupPayload,
  reverseByPrefix,
  reverseBySimilarity,
  type ReverseLookupEndpoint,
} from '../core/reverse-lookup.js';
import { envelope } from '../http/envelope.js';
import { BATCH_JSON_LIMIT, jsonBody } from '../http/json-body.js';
import { readBatchList } from './batch-request.js';
import { ReverseIndexCache } from './reverse-index-cache.js';
import type { SnapshotSource } from './snapshot-source.js';

export interface ReverseDeps {
  registry: SnapshotSource;
  publicResolverUrl: string;
}

export interface ReverseHandlers {
  byPrefix: Middleware;
  bySimilarity: Middleware;
  batch: Middleware;
}

function payloadOf(ctx: Context, endpoint: ReverseLookupEndpoint) {
  const body = ctx.request.body;
  const payload = body !== null && typeof body === 'object' ? (body as { payload?: unknown }).payload : undefined;
  return parseReverseLookupPayload(payload, endpoint);
}

function urlOf(item: unknown): string | null {
  const url = item !== null && typeof item === 'object' ? (item as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? url : null;
}

/** The three reverse-lookup endpoints, each with its body reader, for the router and the hot path. */
export function reverseHandlers(deps: ReverseDeps): ReverseHandlers {
  const indexes = new ReverseIndexCache(deps.registry);
  const options = { publicResolverUrl: deps.publicResolverUrl };
  const readSmall = jsonBody();
  const readBatch = jsonBody(BATCH_JSON_LIMIT);

  const byPrefix: Middleware = (ctx) =>
    readSmall(ctx, async () => {
      const match = reverseByPrefix(indexes.current(), payloadOf(ctx, 'byPrefix'), options);
      if (!match) {
        ctx.status = 204;
        ctx.body = null;
        return;
      }
      ctx.body = envelope(match);
    });

  const bySimilarity: Middleware = (ctx) =>
    readSmall(ctx, async () => {
      const matches = reverseBySimilarity(indexes.current(), payloadOf(ctx, 'bySimilarity'), options);
      if (matches.length === 0) {
        ctx.status = 204;
        ctx.body = null;
        return;
      }
      ctx.body = envelope(matches);
    });

  // Not in the reference: many URLs in one request, one result per item in input order, each carrying
  // the status and match the single byPrefix call would give.
  const batch: Middleware = (ctx) =>
    readBatch(ctx, async () => {
      const requests = readBatchList(ctx.request.body, 'requests');
      const index = indexes.current();
      const results = requests.map((item, position) => {
        try {
          const match = reverseByPrefix(index, parseReverseLookupPayload(item, 'byPrefix'), options);
          return { url: urlOf(item), status: match ? 200 : 204, errorMessage: null, match };
        } catch (error) {
          if ((error as { status?: number }).status === 400) {
            return { url: urlOf(item), status: 400, errorMessage: `requests[${position}]: ${(error as Error).message}`, match: null };
          }
          throw error;
        }
      });
      ctx.body = envelope({ results });
    });

  return { byPrefix, bySimilarity, batch };
}

/**
 * POST /reverse/byPrefix, /reverse/bySimilarity and /reverse/batch as routes. The resolver's hot path
 * answers the POSTs first (see hot-path.ts); the router remains for the rest, e.g. 405 on a GET.
 */
export function reverseRoutes(handlers: ReverseHandlers): Router {
  const router = new Router({ prefix: '/reverse' });
  router.post('/byPrefix', handlers.byPrefix);
  router.post('/bySimilarity', handlers.bySimilarity);
  router.post('/batch', handlers.batch);
  return router;
}
