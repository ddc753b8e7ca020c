import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { parseReverseLookupPayload, reverseByPrefix } from '../core/reverse-lookup.js';
import { envelope } from '../http/envelope.js';
import { HttpError } from '../http/http-error.js';
import { BATCH_JSON_LIMIT, jsonBody } from '../http/json-body.js';
import { readBatchList } from './batch-request.js';
import type { ReverseIndexCache } from './reverse-index-cache.js';

export interface ReverseDeps {
  reverseIndexes: ReverseIndexCache;
  publicResolverUrl: string;
}

function urlOf(item: unknown): string | null {
  const url = item !== null && typeof item === 'object' ? (item as { url?: unknown }).url : undefined;
  return typeof url === 'string' ? url : null;
}

const SINGLE_LOOKUPS = new Set(['/reverse/byPrefix', '/reverse/bySimilarity']);

/**
 * The reverse-lookup endpoints Koa answers: POST /reverse/batch, and 405 for the single lookups asked with
 * another method (their POSTs are answered by the front handler, see front-handler.ts).
 */
export function reverseRoutes(deps: ReverseDeps): { wrongMethod: Middleware; router: Router } {
  const options = { publicResolverUrl: deps.publicResolverUrl };
  const router = new Router({ prefix: '/reverse' });

  // Not in the reference: many URLs in one request, one result per item in input order, each carrying
  // the status and match the single byPrefix call would give.
  router.post('/batch', jsonBody(BATCH_JSON_LIMIT), (ctx) => {
    const requests = readBatchList(ctx.request.body, 'requests');
    const index = deps.reverseIndexes.current();
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

  const wrongMethod: Middleware = (ctx, next) => {
    if (!SINGLE_LOOKUPS.has(ctx.path) || ctx.method === 'OPTIONS') return next();
    throw new HttpError(405, `Method ${ctx.method} is not allowed on ${ctx.path}; use POST`, { Allow: 'POST' });
  };
  return { wrongMethod, router };
}
