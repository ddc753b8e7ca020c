/**
 * Where the queue board lives. Issue 14 asks for it at /admin/queues; it is served at /curation/queues, and
 * /admin/queues (and everything under it) answers 308 to the same place there.
 *
 * Why not at /admin/queues itself: the board is behind the curator desk's sign-in, and the desk's session
 * cookie has Path=/curation, so the browser never sends it to /admin. Widening the cookie's Path to / would
 * keep HttpOnly, SameSite=Strict and the desk forms' CSRF tokens as they are, but would send the session to
 * every page and JSON API of the registry, which today never see it (and which the rate limits would then
 * have to look up in Postgres for each request); under /curation the board gets the desk's session, its
 * sign-in with the way back, and its exemption from the rate limits without changing the desk at all.
 */
import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Logger } from '../../lib/logger.js';
import { DESK_PATH } from '../model/desk-auth.js';
import type { DeskSessions } from '../model/desk-sessions.service.js';
import type { WrongTokenThrottle } from '../model/wrong-token-throttle.js';
import { guardQueueBoard, pathInBoard, QUEUE_BOARD_PATH } from './queue-board-access.js';
import { createQueueBoard, type QueueBoardDeps } from './queue-board.js';

/** The address issue 14 gives the board; it redirects to QUEUE_BOARD_PATH. */
export const ADMIN_QUEUES_PATH = '/admin/queues';

export interface QueueBoardRouteDeps {
  redis: QueueBoardDeps['redis'];
  /** QUEUE_PREFIX. */
  queuePrefix: string;
  curatorToken: string;
  signInEnabled: boolean;
  publicRegistryUrl: string;
  sessions: DeskSessions;
  tokenThrottle: WrongTokenThrottle;
  logger: Logger;
}

/** The board at QUEUE_BOARD_PATH, its guard first: middleware that hand every other request on. */
export function queueBoardMiddleware(deps: QueueBoardRouteDeps): Middleware[] {
  return [
    guardQueueBoard({
      basePath: QUEUE_BOARD_PATH,
      curatorToken: deps.curatorToken,
      signInEnabled: deps.signInEnabled,
      publicOrigin: new URL(deps.publicRegistryUrl).origin,
      sessions: deps.sessions,
      tokenThrottle: deps.tokenThrottle,
    }),
    createQueueBoard({ redis: deps.redis, prefix: deps.queuePrefix, basePath: QUEUE_BOARD_PATH, deskPath: DESK_PATH, logger: deps.logger }),
  ];
}

/**
 * /admin/queues[/...] → 308 to /curation/queues[/...], the query kept: 308 keeps the method and body, and
 * clients keep Authorization on a redirect to the same origin.
 */
export function adminQueuesRedirect(): Router {
  const router = new Router();
  const paths = [ADMIN_QUEUES_PATH, `${ADMIN_QUEUES_PATH}/{*rest}`];
  const redirect = (ctx: Context) => {
    const rest = pathInBoard(ctx.path, ADMIN_QUEUES_PATH) ?? '/';
    ctx.status = 308;
    ctx.redirect(`${QUEUE_BOARD_PATH}${rest === '/' ? '' : rest}${ctx.querystring ? `?${ctx.querystring}` : ''}`);
  };
  // The methods bull-board's page and API use (HEAD with GET); not router.all, which would also claim
  // CONNECT, TRACE and the rest for these paths.
  router.get(paths, redirect).put(paths, redirect).post(paths, redirect).patch(paths, redirect);
  return router;
}
