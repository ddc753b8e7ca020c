import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { createEbiDatasetAnswers } from './ebi-dataset-answers.js';
import { searchRoutes } from './search.routes.js';

/** The registry search and its EBI Search shapes: ahead of /registry/{prefix}, whose paths these share. */
export function mountSearch(app: Koa, area: Pick<RegistryArea, 'config' | 'db' | 'versions' | 'search'>): void {
  const urls = { publicResolverUrl: area.config.PUBLIC_RESOLVER_URL, publicRegistryUrl: area.config.PUBLIC_REGISTRY_URL };
  useRouters(app, [searchRoutes({ search: area.search, ebiDataset: createEbiDatasetAnswers(area.db, area.versions, urls), ...urls })]);
}
