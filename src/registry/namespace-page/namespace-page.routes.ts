import { Router } from '@koa/router';
import type { Db } from '../../db/knex.js';
import { notFound } from '../../http/http-error.js';

export interface NamespacePageDeps {
  db: Db;
  publicRegistryUrl: string;
}

/**
 * GET /registry/{prefix}: the namespace page the resolver links to (bare namespaces, resolveMirId,
 * landing pages). Until the registry has web pages it sends clients to the namespace's HAL item.
 */
export function namespacePageRoutes(deps: NamespacePageDeps): Router {
  const router = new Router();
  router.get('/registry/:prefix', async (ctx) => {
    const prefix = ctx.params.prefix ?? '';
    const row = (await deps.db('namespaces').whereRaw('lower(prefix) = lower(?)', [prefix]).first('id')) as { id: number } | undefined;
    if (!row) throw notFound(`No namespace with prefix '${prefix}'`);
    ctx.status = 302;
    ctx.set('Location', `${deps.publicRegistryUrl}/restApi/namespaces/${row.id}`);
    ctx.body = '';
  });
  return router;
}
