import { Router } from '@koa/router';
import { notFound } from '../../http/http-error.js';
import { namespaceMetadata, platformMetadata, type SchemaOrgUrls } from '../model/schema-org.presenter.js';
import type { SchemaOrgService } from './schema-org.service.js';

// Set before the body: Koa keeps a content type naming json and would otherwise send application/json.
// The charset is the one every other JSON answer of the service declares (JSON-LD is always UTF-8).
const JSON_LD_TYPE = 'application/ld+json; charset=utf-8';

/** GET /schemaOrgApi/getMetadataForPlatform, .../getMetadataForNamespacePrefix/{prefix}, .../getMetadataForNamespace/{id}. */
export function schemaOrgRoutes(deps: SchemaOrgUrls & { namespaces: SchemaOrgService }): Router {
  const router = new Router({ prefix: '/schemaOrgApi' });

  router.get('/getMetadataForPlatform', (ctx) => {
    ctx.type = JSON_LD_TYPE;
    ctx.body = platformMetadata(deps);
  });

  router.get('/getMetadataForNamespacePrefix/:prefix', async (ctx) => {
    const prefix = ctx.params.prefix ?? '';
    const ns = await deps.namespaces.namespaceByPrefix(prefix);
    if (!ns) throw notFound(`Schema.org metadata for namespace with prefix '${prefix}' COULD NOT BE PROVIDED, the namespace DOES NOT exist`);
    ctx.type = JSON_LD_TYPE;
    ctx.body = namespaceMetadata(deps, ns);
  });

  router.get('/getMetadataForNamespace/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const ns = /^\d{1,15}$/.test(id) ? await deps.namespaces.namespaceById(Number(id)) : undefined;
    if (!ns) throw notFound(`Schema.org metadata for namespace with ID '${id}' COULD NOT BE PROVIDED, the namespace DOES NOT exist`);
    ctx.type = JSON_LD_TYPE;
    ctx.body = namespaceMetadata(deps, ns);
  });

  return router;
}
