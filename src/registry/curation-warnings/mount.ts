import type Koa from 'koa';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { warningsRoutes } from './warnings.routes.js';
import { createWarningsActions } from './warnings.service.js';

/** The curation warnings the curators review and dismiss. */
export function mountCurationWarnings(app: Koa, area: Pick<RegistryArea, 'config' | 'db' | 'tokenThrottle' | 'accessTokens'>): void {
  const { config } = area;
  useRouters(app, [
    warningsRoutes({
      warnings: createWarningsActions(area.db),
      curatorToken: config.CURATOR_TOKEN,
      curatorName: config.CURATOR_NAME,
      tokenThrottle: area.tokenThrottle,
      accessTokens: area.accessTokens,
      publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    }),
  ]);
}
