import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { schemaOrgRoutes } from './schema-org.routes.js';
import { createSchemaOrgService } from './schema-org.service.js';

/** The schema.org metadata of the platform and of each namespace. */
export function mountSchemaOrg(app: Koa, area: Pick<RegistryArea, 'config' | 'db'>): void {
  const { config } = area;
  useRouters(app, [
    schemaOrgRoutes({
      namespaces: createSchemaOrgService(area.db),
      publicResolverUrl: config.PUBLIC_RESOLVER_URL,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
  ]);
}
