import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { maintenanceRoutes } from './maintenance.routes.js';

/** Registry maintenance (the curators' PATCH, PUT and lifecycle requests): ahead of /restApi, whose router answers only reads. */
export function mountMaintenance(app: Koa, area: Pick<RegistryArea, 'config' | 'maintenance' | 'tokenThrottle' | 'accessTokens'>): void {
  const { config } = area;
  useRouters(app, [
    maintenanceRoutes({
      maintenance: area.maintenance,
      curatorToken: config.CURATOR_TOKEN,
      curatorName: config.CURATOR_NAME,
      tokenThrottle: area.tokenThrottle,
      accessTokens: area.accessTokens,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
  ]);
}
