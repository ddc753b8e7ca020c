import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { statisticsRoutes } from './statistics.routes.js';

/** A namespace's usage statistics. */
export function mountStatistics(app: Koa, area: Pick<RegistryArea, 'statistics'>): void {
  useRouters(app, [statisticsRoutes({ statistics: area.statistics })]);
}
