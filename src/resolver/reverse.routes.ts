import { Router } from '@koa/router';
import type { Context } from 'koa';
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

function payloadOf(ctx: Context, endpoint: ReverseLookupEndpoint) {
  const body = ctx.request.body;
  const payload = body !== null && typeof body === 'object' ? (body as { payload?: unknown }).payload : undefined;
  return parseReverseLookupPayload(payload, endpoint);
}

/** POST /reverse/byPrefix, /reverse/bySimilarity and /reverse/batch: provider URL back to a CURIE. */
export function reverseRoutes(deps: ReverseDeps): Router {
  const indexes = new ReverseIndexCache(deps.registry);
  const options = { publicResolverUrl: deps.publicResolverUrl };
  const router = new Router({ prefix: '/reverse' });

  router.post('/byPrefix', jsonBody(), (ctx) => {
    const match = reverseByPrefix(indexes.current(), payloadOf(ctx, 'byPrefix'), options);
    if (!match) {
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    ctx.body = envelope(match);
  });

  router.post('/bySimilarity', jsonBody(), (ctx) => {
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
  router.post('/batch', jsonBody(BATCH_JSON_LIMIT), (ctx) => {
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

  return router;
}

function urlOf(item: unknown): string | null {
  const url = item !== null && typeof item === 'object' ? (item as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? url : null;
}

