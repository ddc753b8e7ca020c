import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { embedRoutes } from './embed.routes.js';

/** The embeddable search box (/embed/curie-search.js) and its page (/embed). */
export function mountEmbed(app: Koa, area: Pick<RegistryArea, 'site'>): void {
  useRouters(app, [embedRoutes({ site: area.site })]);
}
