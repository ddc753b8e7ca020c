/**
 * Who is at the curator desk: the session cookie and the CSRF check of the desk's forms (wrong curator
 * tokens are throttled by wrong-token-throttle.ts, as everywhere the token is taken). The cookie is HttpOnly, SameSite=Strict, Secure when the desk is served over https
 * (ctx.secure: behind a proxy, with TRUST_PROXY), and has the path /curation: the browser sends it to the
 * desk's own pages and forms only, never to the JSON APIs, which keep asking for the bearer token.
 */
import type { Context, Middleware } from 'koa';
import { assertBodyUnread } from '../../http/auth-before-body.js';
import type { Curator } from './curator-auth.js';
import { isOwnOrigin, sameToken } from '../../web/csrf.js';
import type { DeskSession, DeskSessions, SessionLookup } from './desk-sessions.service.js';
import { SIGN_IN_MINUTES } from './desk-sessions.service.js';

export const DESK_PATH = '/curation';
/** Where the queue board is served: under the desk's path, whose session cookie reaches it (queue-board.routes.ts says why). */
export const QUEUE_BOARD_PATH = `${DESK_PATH}/queues`;
export const SESSION_COOKIE = 'registry_curator';
/** The state of an OpenID Connect sign-in under way (SameSite=Lax: it must come back with the provider's redirect). */
export const SIGN_IN_COOKIE = 'registry_curator_oidc';
const SIGN_IN_PATH = `${DESK_PATH}/oidc`;
/** The hidden field of the desk's forms. */
export const DESK_CSRF_FIELD = 'csrf';
/**
 * The sign-in, sign-out and OpenID Connect forms hold a CSRF token, the curator token (at most 1,000
 * characters, config.ts) and the way back (at most 500): anyone may post them, so they are read within a few
 * KiB, not the pages' 64 KiB.
 */
export const SIGN_IN_FORM_LIMIT = 8 * 1024;

interface DeskState {
  desk?: SessionLookup;
}

export function setSessionCookie(ctx: Context, value: string, expiresAt: Date): void {
  ctx.cookies.set(SESSION_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: DESK_PATH, expires: expiresAt, overwrite: true });
}

export function clearSessionCookie(ctx: Context): void {
  ctx.cookies.set(SESSION_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: DESK_PATH, expires: new Date(0), overwrite: true });
}

export function sessionCookie(ctx: Context): string | undefined {
  return ctx.cookies.get(SESSION_COOKIE);
}

export function setSignInCookie(ctx: Context, state: string): void {
  ctx.cookies.set(SIGN_IN_COOKIE, state, {
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secure,
    path: SIGN_IN_PATH,
    maxAge: SIGN_IN_MINUTES * 60_000,
    overwrite: true,
  });
}

export function takeSignInCookie(ctx: Context): string | undefined {
  const state = ctx.cookies.get(SIGN_IN_COOKIE);
  ctx.cookies.set(SIGN_IN_COOKIE, '', { httpOnly: true, sameSite: 'lax', secure: ctx.secure, path: SIGN_IN_PATH, expires: new Date(0), overwrite: true });
  return state;
}

/** The desk session the cookie names, read once per request into ctx.state. */
async function readDeskSession(ctx: Context, sessions: DeskSessions): Promise<SessionLookup> {
  const state = ctx.state as DeskState;
  state.desk ??= await sessions.find(sessionCookie(ctx));
  return state.desk;
}

/** Reads the desk session the cookie names into ctx.state (once per request). */
export function loadDeskSession(sessions: DeskSessions): Middleware {
  return async function deskSession(ctx, next) {
    await readDeskSession(ctx, sessions);
    await next();
  };
}

/**
 * Whether a request is a signed-in curator's at the desk (the rate limits never count curators; the queue
 * board, under the desk's path, lets them in). Only requests under the desk's path carry the cookie, so no
 * other request costs a session lookup.
 */
export async function isSignedInAtDesk(ctx: Context, sessions: DeskSessions): Promise<boolean> {
  if (ctx.path !== DESK_PATH && !ctx.path.startsWith(`${DESK_PATH}/`)) return false;
  if (sessionCookie(ctx) === undefined) return false;
  return (await readDeskSession(ctx, sessions)).state === 'signed-in';
}

export function deskLookup(ctx: Context): SessionLookup {
  return (ctx.state as DeskState).desk ?? { state: 'none' };
}

/** The signed-in session, on a route behind requireSignedIn. */
export function deskSessionOf(ctx: Context): DeskSession {
  const lookup = deskLookup(ctx);
  if (lookup.state !== 'signed-in') throw new Error('deskSessionOf() on a route that requireSignedIn() does not guard');
  return lookup.session;
}

/** The curator acting at the desk. */
export function deskCurator(ctx: Context): Curator {
  return deskSessionOf(ctx).curator;
}

/** Where the desk sends a curator back after sign-in: a desk page's path (anything else is the desk's home). */
export function safeNext(raw: unknown): string {
  return typeof raw === 'string' && /^\/curation(\/[A-Za-z0-9._~%/-]*)?(\?[A-Za-z0-9._~%&=+-]*)?$/.test(raw) && !raw.includes('//') && raw.length <= 500 ? raw : DESK_PATH;
}

/**
 * The desk's pages need a signed-in curator. A page asked without one is sent to the sign-in (303) with
 * its address to come back to; a form sent without one is answered by `refuse` (401), since its values
 * cannot be carried through a sign-in. It runs ahead of the form's body reader: a request without a session
 * is refused before a byte of its body is read (auth-before-body.ts).
 */
export function requireSignedIn(refuse: (ctx: Context, expired: boolean) => void): Middleware {
  return async function signedInOnly(ctx, next) {
    assertBodyUnread(ctx, 'the desk session check');
    const lookup = deskLookup(ctx);
    if (lookup.state === 'signed-in') return next();
    const expired = lookup.state === 'expired';
    if (ctx.method === 'GET' || ctx.method === 'HEAD') return sendToSignIn(ctx, expired);
    refuse(ctx, expired);
  };
}

/** Sends a page asked without a session to the sign-in (303), with its own address to come back to. */
export function sendToSignIn(ctx: Context, expired: boolean): void {
  const next = encodeURIComponent(ctx.path + (ctx.querystring ? `?${ctx.querystring}` : ''));
  ctx.status = 303;
  ctx.redirect(`${DESK_PATH}/sign-in?next=${next}${expired ? '&expired=1' : ''}`);
}

/**
 * Whether a desk form was sent from the desk: the browser's Origin (when sent) is the registry's, and the
 * form carries the session's own CSRF token. SameSite=Strict already keeps the session cookie off other
 * sites' requests; the token also stops a form planted on the registry's own origin from outside the desk.
 */
export function isDeskFormPost(ctx: Context, formToken: string | undefined, publicOrigin: string): boolean {
  const lookup = deskLookup(ctx);
  if (lookup.state !== 'signed-in' || formToken === undefined) return false;
  return isOwnOrigin(ctx, publicOrigin) && sameToken(lookup.session.csrfToken, formToken);
}
