import { Router } from '@koa/router';
import { notFound } from '../../http/http-error.js';
import type { NamespacePageService } from './namespace-page.service.js';

export interface NamespacePageDeps {
  namespaces: NamespacePageService;
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
    const id = await deps.namespaces.namespaceId(prefix);
    if (id === undefined) throw notFound(`No namespace with prefix '${prefix}'`);
    ctx.status = 302;
    ctx.set('Location', `${deps.publicRegistryUrl}/restApi/namespaces/${id}`);
    ctx.body = '';
  });
  return router;
}
