import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { datasetRoutes } from './dataset.routes.js';

/** The resolver dataset's files, exports, dated copies and their diff. */
export function mountDataset(app: Koa, area: Pick<RegistryArea, 'config' | 'redis' | 'logger' | 'metrics'>): void {
  useRouters(app, [datasetRoutes({ config: area.config, redis: area.redis, logger: area.logger, metrics: area.metrics })]);
}
