import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { namespacePageRoutes } from './namespace-page.routes.js';
import { createNamespacePageService } from './namespace-page.service.js';
import { namespaceRdfRoutes } from './namespace-rdf.routes.js';
import { createNamespaceRdfService } from './namespace-rdf.service.js';
import { pagesRoutes } from './pages.routes.js';
import { RegistryPagesService } from './registry-pages.service.js';
import { lookUpUrl } from './reverse-lookup.service.js';

/**
 * The pages people read. /registry/{prefix} is answered in three steps: RDF for a client that asks for it,
 * the page for a browser, the HAL redirect for everyone else.
 */
export function mountPages(
  app: Koa,
  area: Pick<RegistryArea, 'config' | 'db' | 'site' | 'restApiData' | 'versions' | 'statistics' | 'health' | 'search'>,
): void {
  const { config, db } = area;
  useRouters(app, [
    namespaceRdfRoutes({
      namespaces: createNamespaceRdfService(db),
      urls: { publicResolverUrl: config.PUBLIC_RESOLVER_URL, publicRegistryUrl: config.PUBLIC_REGISTRY_URL },
    }),
    pagesRoutes({
      site: area.site,
      pages: new RegistryPagesService({ db, data: area.restApiData, versions: area.versions, statistics: area.statistics, health: area.health }),
      search: area.search,
      lookUpUrl: (url) => lookUpUrl(db, config.PUBLIC_RESOLVER_URL, url),
    }),
    namespacePageRoutes({ namespaces: createNamespacePageService(db), publicRegistryUrl: config.PUBLIC_REGISTRY_URL }),
  ]);
}
