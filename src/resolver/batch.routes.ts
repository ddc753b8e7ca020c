import { Router } from '@koa/router';
import { resolveCompactId } from '../core/resolve.js';
import { resolvedResourcesJson } from '../core/resolve-json.js';
import { BATCH_JSON_LIMIT, jsonBody } from '../http/json-body.js';
import { MAX_ITEM_LENGTH, readBatchList } from './batch-request.js';
import type { SnapshotSource } from './snapshot-source.js';
import type { ResolutionCounter } from './front-handler.js';

export interface BatchDeps {
  registry: SnapshotSource;
  publicRegistryUrl: string;
  count?: ResolutionCounter;
}

/**
 * POST /resolve/batch (not in the reference; users ask for it): each item answered exactly as the single
 * GET would answer it, with that call's HTTP status, in input order, all against one snapshot.
 */
export function batchRoutes(deps: BatchDeps): Router {
  const options = { publicRegistryUrl: deps.publicRegistryUrl };
  const router = new Router();
  router.post('/resolve/batch', jsonBody(BATCH_JSON_LIMIT), (ctx) => {
    const identifiers = readBatchList(ctx.request.body, 'compactIdentifiers');
    const snapshot = deps.registry.snapshot;
    const count = deps.count && ctx.get('DNT') !== '1' ? deps.count : undefined;
    // Written as text item by item: a batch of 1,000 answers is megabytes of JSON, and each resolved
    // resource's unchanging part is already serialised (see core/resolve-json.ts).
    let json = '{"apiVersion":"1.0","errorMessage":null,"payload":{"results":[';
    identifiers.forEach((item, position) => {
      if (position > 0) json += ',';
      if (typeof item !== 'string' || item.length > MAX_ITEM_LENGTH) {
        const problem = typeof item !== 'string' ? 'must be a string' : `is longer than ${MAX_ITEM_LENGTH} characters`;
        json += JSON.stringify({
          compactIdentifier: typeof item === 'string' ? item.slice(0, 100) : null,
          status: 400,
          errorMessage: `compactIdentifiers[${position}] ${problem}`,
          resolvedResources: null,
          parsedCompactIdentifier: null,
        });
        return;
      }
      const result = resolveCompactId(item, snapshot, options);
      const { status, body } = result;
      const namespace = body.payload.parsedCompactIdentifier?.namespace;
      // Each identifier of a batch is a resolution of its namespace, as if it had been asked alone.
      if (count && status === 200 && namespace) {
        count(snapshot.namespacesByPrefix.get(namespace.toLowerCase())?.prefix ?? namespace, ctx.ip, ctx.get('User-Agent'));
      }
      json += `{"compactIdentifier":${JSON.stringify(item)},"status":${status},"errorMessage":${JSON.stringify(body.errorMessage)},"resolvedResources":${resolvedResourcesJson(result)},"parsedCompactIdentifier":${JSON.stringify(body.payload.parsedCompactIdentifier)}}`;
    });
    ctx.set('Content-Type', 'application/json; charset=utf-8');
    ctx.body = `${json}]}}`;
  });
  return router;
}
