import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { satelliteRoutes } from './satellite.routes.js';
import { createSatelliteService } from './satellite.service.js';

/** The satellite API (/satelliteApi): changed namespaces and usage batches for satellite resolvers. */
export function mountSatellite(app: Koa, area: Pick<RegistryArea, 'config' | 'db' | 'redis'>): void {
  useRouters(app, [satelliteRoutes({ service: createSatelliteService(area.db, area.redis), token: area.config.SATELLITE_TOKEN })]);
}
