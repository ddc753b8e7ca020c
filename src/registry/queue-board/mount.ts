import type Koa from 'koa';
import { deskOidcSignInOn } from '../../config.js';
import { useRouters } from '../../http/base-app.js';
import type { RegistryArea } from '../model/registry-area.js';
import { adminQueuesRedirect, queueBoardMiddleware } from './queue-board.routes.js';

/** The queue board (bull-board) under the desk's path, behind its sign-in or the curator token; ahead of every router. */
export function mountQueueBoard(app: Koa, area: Pick<RegistryArea, 'config' | 'redis' | 'logger' | 'sessions' | 'tokenThrottle'>): void {
  const { config } = area;
  for (const middleware of queueBoardMiddleware({
    redis: area.redis,
    queuePrefix: config.QUEUE_PREFIX,
    curatorToken: config.CURATOR_TOKEN,
    // The desk signs in with the curator token and/or OpenID Connect (curator-desk/mount.ts).
    signInEnabled: config.CURATOR_TOKEN !== '' || deskOidcSignInOn(config),
    publicRegistryUrl: config.PUBLIC_REGISTRY_URL,
    sessions: area.sessions,
    tokenThrottle: area.tokenThrottle,
    logger: area.logger,
  })) {
    app.use(middleware);
  }
  useRouters(app, [adminQueuesRedirect()]);
}
