import { Router } from '@koa/router';
import type { Db } from '../../db/knex.js';
import { notFound } from '../../http/http-error.js';
import { namespaceMetadata, platformMetadata, type SchemaOrgUrls } from './schema-org.presenter.js';

// Set before the body: Koa keeps a content type naming json and would otherwise send application/json.
// The charset is the one every other JSON answer of the service declares (JSON-LD is always UTF-8).
const JSON_LD_TYPE = 'application/ld+json; charset=utf-8';

interface NamespaceRow {
  prefix: string;
  name: string;
  description: string;
}

/** GET /schemaOrgApi/getMetadataForPlatform, .../getMetadataForNamespacePrefix/{prefix}, .../getMetadataForNamespace/{id}. */
export function schemaOrgRoutes(deps: SchemaOrgUrls & { db: Db }): Router {
  const router = new Router({ prefix: '/schemaOrgApi' });
  const columns = ['prefix', 'name', 'description'];

  router.get('/getMetadataForPlatform', (ctx) => {
    ctx.type = JSON_LD_TYPE;
    ctx.body = platformMetadata(deps);
  });

  router.get('/getMetadataForNamespacePrefix/:prefix', async (ctx) => {
    const prefix = ctx.params.prefix ?? '';
    // The reference lower-cases the prefix before looking it up.
    const ns = (await deps.db('namespaces').where({ prefix: prefix.toLowerCase() }).first(columns)) as NamespaceRow | undefined;
    if (!ns) throw notFound(`Schema.org metadata for namespace with prefix '${prefix}' COULD NOT BE PROVIDED, the namespace DOES NOT exist`);
    ctx.type = JSON_LD_TYPE;
    ctx.body = namespaceMetadata(deps, ns);
  });

  router.get('/getMetadataForNamespace/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const ns = /^\d{1,15}$/.test(id) ? ((await deps.db('namespaces').where({ id: Number(id) }).first(columns)) as NamespaceRow | undefined) : undefined;
    if (!ns) throw notFound(`Schema.org metadata for namespace with ID '${id}' COULD NOT BE PROVIDED, the namespace DOES NOT exist`);
    ctx.type = JSON_LD_TYPE;
    ctx.body = namespaceMetadata(deps, ns);
  });

  return router;
}
