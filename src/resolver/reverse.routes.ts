import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { ReverseIndex } from '../core/reverse-index.js';
import { parseReverseLookupPayload, reverseByPrefix, type ReverseMatch } from '../core/reverse-lookup.js';
import { envelope } from '../http/envelope.js';
import { HttpError } from '../http/http-error.js';
import { BATCH_JSON_LIMIT, jsonBody } from '../http/json-body.js';
import { readBatchList } from './batch-request.js';
import { countHeavyRequest, HEAVY_UNIT_MS, type HeavyWork } from './heavy-work.js';
import type { ReverseIndexCache } from './reverse-index-cache.js';

export interface ReverseDeps {
  reverseIndexes: ReverseIndexCache;
  publicResolverUrl: string;
  /** The per-client cap and fair scheduling of heavy requests. */
  heavy: HeavyWork;
}

interface ReverseBatchResult {
  url: string | null;
  status: number;
  errorMessage: string | null;
  match: ReverseMatch | null;
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

  const answerItem = (index: ReverseIndex, item: unknown, position: number): ReverseBatchResult => {
    try {
      const match = reverseByPrefix(index, parseReverseLookupPayload(item, 'byPrefix'), options);
      return { url: urlOf(item), status: match ? 200 : 204, errorMessage: null, match };
    } catch (error) {
      if ((error as { status?: number }).status === 400) {
        return { url: urlOf(item), status: 400, errorMessage: `requests[${position}]: ${(error as Error).message}`, match: null };
      }
      throw error;
    }
  };

  // Not in the reference: many URLs in one request, one result per item in input order, each carrying
  // the status and match the single byPrefix call would give. A heavy request (see heavy-work.ts): counted
  // against the client's cap and looked up a slice at a time.
  router.post('/batch', countHeavyRequest(deps.heavy), jsonBody(BATCH_JSON_LIMIT), async (ctx) => {
    const requests = readBatchList(ctx.request.body, 'requests');
    const index = deps.reverseIndexes.current();
    const results: ReverseBatchResult[] = [];
    await deps.heavy.runInTurns(ctx.ip, () => {
      const started = performance.now();
      while (results.length < requests.length) {
        results.push(answerItem(index, requests[results.length], results.length));
        if ((results.length & 15) === 0 && performance.now() - started >= HEAVY_UNIT_MS) break;
      }
      return results.length === requests.length;
    });
    ctx.body = envelope({ results });
  });

  const wrongMethod: Middleware = (ctx, next) => {
    if (!SINGLE_LOOKUPS.has(ctx.path) || ctx.method === 'OPTIONS') return next();
    throw new HttpError(405, `Method ${ctx.method} is not allowed on ${ctx.path}; use POST`, { Allow: 'POST' });
  };
  return { wrongMethod, router };
}
