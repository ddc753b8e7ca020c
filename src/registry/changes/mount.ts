import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { createChangeFeedService } from './change-feed.service.js';
import { changesRoutes } from './changes.routes.js';

/** The registry's change feed (JSON and Atom). */
export function mountChanges(app: Koa, area: Pick<RegistryArea, 'config' | 'db'>): void {
  useRouters(app, [changesRoutes({ changes: createChangeFeedService(area.db), publicRegistryUrl: area.config.PUBLIC_REGISTRY_URL })]);
}
