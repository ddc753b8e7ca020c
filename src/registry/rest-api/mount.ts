import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { personRoutes } from './persons.routes.js';
import { createPersonsService } from './persons.service.js';
import { restApiRoutes } from './rest-api.routes.js';

/** The browse API (HAL) at /restApi, and the persons, whose answer depends on the caller. */
export function mountRestApi(app: Koa, area: Pick<RegistryArea, 'config' | 'db' | 'restApiData' | 'versions' | 'tokenThrottle' | 'accessTokens'>): void {
  const { config } = area;
  useRouters(app, [
    // Ahead of /restApi: a person's answer depends on the caller, and the browse API's cache on the URL only.
    personRoutes({
      persons: createPersonsService(area.db),
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
      curatorToken: config.CURATOR_TOKEN,
      tokenThrottle: area.tokenThrottle,
      accessTokens: area.accessTokens,
    }),
    restApiRoutes({
      data: area.restApiData,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
      versions: area.versions,
      answerCacheBytes: config.REGISTRY_CACHE_MAX_MB * 1024 * 1024,
    }),
  ]);
}
