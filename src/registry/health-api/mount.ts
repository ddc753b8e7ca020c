import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { healthApiRoutes } from './health-api.routes.js';

/** The link checks' health API. */
export function mountHealthApi(app: Koa, area: Pick<RegistryArea, 'health'>): void {
  useRouters(app, [healthApiRoutes({ health: area.health })]);
}
