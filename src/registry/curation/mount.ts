import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { curationRoutes } from './curation.routes.js';

/**
 * The curators' API on registration sessions. Mounted ahead of /restApi, so that the curators' /restApi
 * reads never pass through the browse API's shared answer cache.
 */
export function mountCuration(app: Koa, area: Pick<RegistryArea, 'config' | 'curation' | 'tokenThrottle' | 'accessTokens'>): void {
  const { config } = area;
  useRouters(app, [
    curationRoutes({
      curation: area.curation,
      curatorToken: config.CURATOR_TOKEN,
      curatorName: config.CURATOR_NAME,
      tokenThrottle: area.tokenThrottle,
      accessTokens: area.accessTokens,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
  ]);
}
