import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { DomainError, notFound } from '../../core/domain-error.js';
import { formBody, type FormFields } from '../../http/form-body.js';
import { CSRF_FIELD, isOwnFormPost } from '../../web/csrf.js';
import { sendPage } from '../../web/render-page.js';
import { checkCuratorToken, tokenCurator } from '../model/curator-auth.js';
import { TOO_MANY_WRONG_TOKENS, WrongTokenThrottled, type WrongTokenThrottle } from '../model/wrong-token-throttle.js';
import {
  clearSessionCookie,
  deskLookup,
  DESK_CSRF_FIELD,
  DESK_PATH,
  isDeskFormPost,
  safeNext,
  sessionCookie,
  setSessionCookie,
  setSignInCookie,
  SIGN_IN_FORM_LIMIT,
  takeSignInCookie,
} from '../model/desk-auth.js';
import { FORGED_FORM, NO_STORE, type DeskKit } from './desk-kit.js';
import type { DeskSessions } from '../model/desk-sessions.service.js';
import { SignInRefused, type OidcSignIn } from './oidc-sign-in.service.js';
import { SignedInPage } from './pages/sign-in.page.js';
import type { Site } from '../../web/site.js';

export interface DeskSignInDeps {
  site: Site;
  kit: DeskKit;
  sessions: DeskSessions;
  /** CURATOR_TOKEN; empty: no token sign-in. */
  curatorToken: string;
  /** CURATOR_NAME: who the token's holder is recorded as. */
  curatorName: string;
  /** Wrong tokens counted and throttled as on the curation API (wrong-token-throttle.ts). */
  tokenThrottle: WrongTokenThrottle;
  oidc?: OidcSignIn;
}

const WRONG_TOKEN = 'That is not the curator token. Check it and try again.';
const NOT_HERE = 'This sign-in is not enabled on this registry';

/** "1 second", "2 minutes": how long a throttled address is told to wait, on the sign-in page. */
function describeWait(seconds: number): string {
  const [count, unit] = seconds < 60 ? [seconds, 'second'] : [Math.ceil(seconds / 60), 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * Signing in to the desk and out of it: the curator token typed into a form (compared in constant time;
 * wrong ones throttled per address as on the curation API, the right one always let in), or OpenID Connect
 * (oidc-sign-in.service.ts). A sign-in starts a session (desk-sessions.service.ts) and sets its cookie (desk-auth.ts); signing out ends it.
 */
export function deskSignInRoutes(deps: DeskSignInDeps): Router {
  const { kit, sessions, site } = deps;
  const router = new Router();
  const publicOrigin = new URL(site.publicRegistryUrl).origin;
  const readSignInForm = formBody(SIGN_IN_FORM_LIMIT);

  router.get(`${DESK_PATH}/sign-in`, ...kit.page, (ctx) => {
    const next = safeNext(ctx.query.next);
    if (deskLookup(ctx).state === 'signed-in') {
      ctx.status = 303;
      ctx.redirect(next);
      return;
    }
    const notice = ctx.query.expired === '1' ? 'Your session has expired. Sign in again.' : ctx.query.signedOut === '1' ? 'You have signed out.' : undefined;
    kit.showSignIn(ctx, { notice, next });
  });

  router.post(`${DESK_PATH}/sign-in`, ...kit.page, readSignInForm, async (ctx) => {
    if (deps.curatorToken === '') throw notFound(NOT_HERE);
    const posted = ctx.request.body as FormFields;
    const next = safeNext(posted.next);
    if (!isOwnFormPost(ctx, posted[CSRF_FIELD], publicOrigin)) return kit.showSignIn(ctx, { status: 403, problem: FORGED_FORM, next });
    try {
      if (!(await checkCuratorToken(ctx, posted.token ?? '', deps.curatorToken, deps.tokenThrottle))) return kit.showSignIn(ctx, { status: 401, problem: WRONG_TOKEN, next });
    } catch (error) {
      if (!(error instanceof WrongTokenThrottled)) throw error;
      ctx.set('Retry-After', String(error.waitSeconds));
      return kit.showSignIn(ctx, { status: 429, problem: `${TOO_MANY_WRONG_TOKENS}. Try again in ${describeWait(error.waitSeconds)}.`, next });
    }
    const { cookieValue, session } = await sessions.start(tokenCurator(deps.curatorName));
    setSessionCookie(ctx, cookieValue, session.expiresAt);
    ctx.status = 303;
    ctx.redirect(next);
  });

  const signOut = async (ctx: Context) => {
    await sessions.end(sessionCookie(ctx));
    clearSessionCookie(ctx);
    ctx.status = 303;
    ctx.redirect(`${DESK_PATH}/sign-in?signedOut=1`);
  };
  // Signing out is a change too: only the desk's own form may do it. A session that is gone needs nothing,
  // and then the request's body is never read.
  const signedOutAlready: Middleware = async (ctx, next) => (deskLookup(ctx).state === 'signed-in' ? next() : signOut(ctx));
  router.post(`${DESK_PATH}/sign-out`, ...kit.page, signedOutAlready, readSignInForm, async (ctx) => {
    const posted = ctx.request.body as FormFields;
    if (!isDeskFormPost(ctx, posted[DESK_CSRF_FIELD], publicOrigin)) return kit.showError(ctx, 403, FORGED_FORM);
    await signOut(ctx);
  });

  router.post(`${DESK_PATH}/oidc/start`, ...kit.page, readSignInForm, async (ctx) => {
    if (!deps.oidc) throw notFound(NOT_HERE);
    const posted = ctx.request.body as FormFields;
    if (!isOwnFormPost(ctx, posted[CSRF_FIELD], publicOrigin)) return kit.showSignIn(ctx, { status: 403, problem: FORGED_FORM });
    try {
      const { state, authorizationUrl } = await deps.oidc.start();
      setSignInCookie(ctx, state);
      ctx.status = 303;
      ctx.redirect(authorizationUrl);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      ctx.set('Retry-After', String(error.retryAfterSeconds ?? 30));
      kit.showSignIn(ctx, { status: 503, problem: error.message });
    }
  });

  router.get(`${DESK_PATH}/oidc/callback`, ...kit.page, async (ctx) => {
    if (!deps.oidc) throw notFound(NOT_HERE);
    try {
      const curator = await deps.oidc.finish(ctx.querystring, takeSignInCookie(ctx));
      const { cookieValue, session } = await sessions.start(curator);
      setSessionCookie(ctx, cookieValue, session.expiresAt);
      sendPage(ctx, <SignedInPage site={site} name={curator.name} next={DESK_PATH} />, { cacheControl: NO_STORE });
    } catch (error) {
      if (error instanceof SignInRefused) return kit.showSignIn(ctx, { status: 403, problem: error.message });
      if (!(error instanceof DomainError)) throw error;
      ctx.set('Retry-After', String(error.retryAfterSeconds ?? 30));
      kit.showSignIn(ctx, { status: 503, problem: error.message });
    }
  });

  return router;
}
