/**
 * Who may use the queue board, and which of bull-board's actions. The board is the curators': a signed-in
 * session of the curator desk (its cookie, which the browser sends under /curation only) or the curator
 * token as a bearer. Without either, a page is sent to the desk's sign-in, which brings the curator back;
 * anything else (the board's API, its files, its actions) is answered 401.
 *
 * Actions: bull-board offers every action BullMQ has. The board lets curators retry, clean and promote
 * jobs; the others (adding a job or editing its data, emptying or obliterating a queue, pausing, changing a
 * schedule or a concurrency) would put payloads no producer made into the workers, or undo what the
 * workers' own start-up sets, and are refused with 403 by bull-board's own before-hook (allowListedActions).
 *
 * Cross-site requests (CSRF): the desk's cookie is SameSite=Strict, so no other site's page or form can
 * make the browser send it; the allowed actions are PUT, which no HTML form sends and which a page on
 * another origin could send only after a CORS preflight, which the registry never grants with credentials.
 * That is why the board's actions carry no CSRF token of their own as the desk's forms do (bull-board's page
 * could not send one). An Origin, when the browser sends one, must still be the registry's own: a sibling
 * subdomain is "same site" for SameSite, not the same origin.
 */
import type { BeforeHook } from '@bull-board/api/typings/app';
import type { Context, Middleware } from 'koa';
import { assertBodyUnread } from '../../http/auth-before-body.js';
import { bearerTokenOf } from '../../http/bearer-token.js';
import { DomainError } from '../../core/domain-error.js';
import { isOwnOrigin } from '../../web/csrf.js';
import { checkCuratorToken, CURATION_CHALLENGE, CURATION_DISABLED_MESSAGE, TOKEN_WRONG_MESSAGE } from '../model/curator-auth.js';
import type { WrongTokenThrottle } from '../model/wrong-token-throttle.js';
import { deskLookup, isSignedInAtDesk, sendToSignIn } from '../model/desk-auth.js';
import type { DeskSessions } from '../model/desk-sessions.service.js';

export { QUEUE_BOARD_PATH } from '../model/desk-auth.js';

export const NOT_SIGNED_IN = 'The queue board is for curators: sign in at the curator desk, or send Authorization: Bearer <curator token>';
export const ACTION_REFUSED = 'The queue board retries, cleans and promotes jobs; its other actions are turned off on this registry';
export const FOREIGN_ORIGIN = "Queue board actions are taken from the registry's own pages only";

/**
 * The actions the board allows, as bull-board names its routes (method and route template): a queue's
 * failed or completed jobs retried or cleaned at once, one job retried, cleaned or promoted, a queue's
 * delayed jobs promoted. Every read (GET) is allowed.
 */
export const ALLOWED_ACTIONS: ReadonlySet<string> = new Set([
  'put /api/queues/:queueName/retry/:queueStatus',
  'put /api/queues/:queueName/clean/:queueStatus',
  'put /api/queues/:queueName/promote',
  'put /api/queues/:queueName/:jobId/retry',
  'put /api/queues/:queueName/:jobId/clean',
  'put /api/queues/:queueName/:jobId/promote',
]);

/** bull-board's hook ahead of each of its API handlers: reads and ALLOWED_ACTIONS pass, anything else is 403. */
export const allowListedActions: BeforeHook = ({ method, route }) =>
  method === 'get' || ALLOWED_ACTIONS.has(`${method} ${route}`) ? { allow: true } : { allow: false, status: 403, message: ACTION_REFUSED };

export interface QueueBoardAccess {
  /** Where the board is mounted. */
  basePath: string;
  /** CURATOR_TOKEN; empty when the token is off. */
  curatorToken: string;
  /** Whether curators can sign in at all (the token, or OpenID Connect); the board answers 404 otherwise, as the desk does. */
  signInEnabled: boolean;
  /** PUBLIC_REGISTRY_URL's origin: what a browser behind a proxy sends as Origin. */
  publicOrigin: string;
  sessions: DeskSessions;
  /** Wrong tokens counted and throttled as on the curation API (wrong-token-throttle.ts). */
  tokenThrottle: WrongTokenThrottle;
}

/** The board's path below its mount (`/api/queues`), or undefined for a request outside the board. */
export function pathInBoard(path: string, basePath: string): string | undefined {
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : undefined;
}

/** The curator token as a bearer (a wrong one is refused and throttled, as on the curation API), or a desk session. */
async function isCurator(ctx: Context, access: QueueBoardAccess): Promise<boolean> {
  const given = bearerTokenOf(ctx.get('Authorization') || undefined);
  if (given !== undefined) {
    if (!(await checkCuratorToken(ctx, given, access.curatorToken, access.tokenThrottle))) throw new DomainError('forbidden', TOKEN_WRONG_MESSAGE);
    return true;
  }
  // Read once per request: the rate limits have already looked it up for this request when they could.
  return isSignedInAtDesk(ctx, access.sessions);
}

/** The board's own headers: never stored, never framed, never indexed, and its page loads only the registry's files. */
function setBoardHeaders(ctx: Context, boardPath: string): void {
  ctx.set('X-Robots-Tag', 'noindex');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
  // bull-board's page asks a font service for its type faces: 'self' keeps curators' browsers from calling
  // out to it (the page falls back to system fonts). Its markup carries inline style attributes and a style
  // element, hence 'unsafe-inline' for styles only; its scripts are all files of its own.
  ctx.set(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
      "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'",
  );
  // The board's files are the package's, the same for everyone; its pages and API answers are live queue state.
  if (!boardPath.startsWith('/static/')) ctx.set('Cache-Control', 'no-store');
}

/**
 * Guards the board: needs the desk session or the curator token, and an action the registry's own Origin
 * (when the browser sends one). Which actions bull-board then takes is allowListedActions's. Requests
 * outside the board pass untouched.
 */
export function guardQueueBoard(access: QueueBoardAccess): Middleware {
  return async function queueBoardAccess(ctx, next) {
    const boardPath = pathInBoard(ctx.path, access.basePath);
    if (boardPath === undefined) return next();
    assertBodyUnread(ctx, 'the queue board\'s guard');
    setBoardHeaders(ctx, boardPath);
    if (!access.signInEnabled) throw new DomainError('not-found', CURATION_DISABLED_MESSAGE);
    if (!(await isCurator(ctx, access))) {
      const isPage = (ctx.method === 'GET' || ctx.method === 'HEAD') && !boardPath.startsWith('/api/') && !boardPath.startsWith('/static/');
      if (isPage) return sendToSignIn(ctx, deskLookup(ctx).state === 'expired');
      throw new DomainError('unauthenticated', NOT_SIGNED_IN, { challenge: CURATION_CHALLENGE });
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !isOwnOrigin(ctx, access.publicOrigin)) throw new DomainError('forbidden', FOREIGN_ORIGIN);
    await next();
  };
}
