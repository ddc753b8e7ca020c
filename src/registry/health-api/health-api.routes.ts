import { Router } from '@koa/router';
import { invalid, notFound } from '../../core/domain-error.js';
import { sendCacheableJson } from '../../http/conditional-get.js';
import { presentHealthSummary, presentNamespaceHealth, presentResourceHealth } from './health-api.presenter.js';
import type { HealthApiService } from '../model/link-health.js';

/** Checks are stored in batches; a minute of staleness costs nothing and spares the database. */
const MAX_AGE_SECONDS = 60;

/**
 * The link checks' findings, public and cacheable (issue 12): GET /healthApi/resources/{id},
 * /healthApi/namespaces/{prefix} and /healthApi/summary. Not in the reference, whose /healthApi holds only
 * the resolver's deprecated liveness probes.
 */
export function healthApiRoutes(deps: { health: HealthApiService }): Router {
  const router = new Router({ prefix: '/healthApi' });

  router.get('/resources/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    if (!/^\d{1,15}$/.test(id)) throw invalid(`Resource id '${id}' is not a number`);
    const health = await deps.health.resourceHealth(Number(id));
    if (!health) throw notFound(`No resource with id '${id}'`);
    sendCacheableJson(ctx, presentResourceHealth(health), MAX_AGE_SECONDS);
  });

  router.get('/namespaces/:prefix', async (ctx) => {
    const prefix = ctx.params.prefix ?? '';
    const health = await deps.health.namespaceHealth(prefix);
    if (!health) throw notFound(`No namespace with prefix '${prefix}'`);
    sendCacheableJson(ctx, presentNamespaceHealth(health), MAX_AGE_SECONDS);
  });

  router.get('/summary', async (ctx) => {
    sendCacheableJson(ctx, presentHealthSummary(await deps.health.summary()), MAX_AGE_SECONDS);
  });

  return router;
}
