/**
 * What every desk route is built with: the page headers, the session, the sign-in redirect, the CSRF check
 * of the forms, and the page context (who is signed in, the forms' token).
 */
import type { Context, Middleware } from 'koa';
import { formBody, type FormFields } from '../../http/form-body.js';
import { notFound } from '../../core/domain-error.js';
import { setPageSecurity } from '../../http/page-security.js';
import { csrfToken } from '../../web/csrf.js';
import { ErrorPage } from '../../web/error-page.js';
import { sendPage, servingPage } from '../../web/render-page.js';
import type { Site } from '../../web/site.js';
import { CURATION_DISABLED_MESSAGE } from '../model/curator-auth.js';
import { deskSessionOf, DESK_CSRF_FIELD, isDeskFormPost, loadDeskSession, requireSignedIn, safeNext } from '../model/desk-auth.js';
import type { DeskSessions } from '../model/desk-sessions.service.js';
import type { DeskContext } from './pages/desk-parts.js';
import { SignInPage } from './pages/sign-in.page.js';

export const NO_STORE = 'no-store';
/** The largest page number a desk list takes (a page past its last shows the last). */
export const MAX_DESK_PAGE = 1_000_000;
export const FORGED_FORM = 'The form had expired, or was not sent from the curator desk. Reload the page and send it again.';
const SESSION_ENDED = 'Your session has ended (it expired, or you signed out). Sign in again; what the form held was not saved.';

export interface DeskKitDeps {
  site: Site;
  sessions: DeskSessions;
  /** CURATOR_TOKEN is set. */
  tokenSignIn: boolean;
  /** OIDC_ISSUER is set: the provider's name. */
  oidcProvider?: string;
}

export interface DeskKit {
  /** Every desk route first: page headers; 404 when the desk is off; the session read. */
  page: Middleware[];
  /** A desk page (GET): signed in, or sent to the sign-in. */
  signedIn: Middleware[];
  /**
   * A desk form (POST): signed in (else 401, the body unread), then the body read (at most 64 KiB), then
   * sent from the desk (else 403): the CSRF token is in the body, the session in the cookie.
   */
  form: Middleware[];
  /** The same for a form whose body may be up to `limit` bytes (a pasted list). */
  formWithin(limit: number): Middleware[];
  context(ctx: Context): DeskContext;
  /** The sign-in page, with a notice or a problem. */
  showSignIn(ctx: Context, answer: { status?: number; notice?: string; problem?: string; next?: string }): void;
  /** A refusal of the whole request as an error page (403 for a forged form, 404 for an unknown record). */
  showError(ctx: Context, status: number, message: string): void;
}

export function createDeskKit(deps: DeskKitDeps): DeskKit {
  const { site } = deps;
  const enabled = deps.tokenSignIn || deps.oidcProvider !== undefined;
  const publicOrigin = new URL(site.publicRegistryUrl).origin;

  const headers: Middleware = async (ctx, next) => {
    servingPage(ctx);
    ctx.set('Cache-Control', NO_STORE);
    // Desk addresses name requests and records: kept from other sites, crawlers and frames.
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Robots-Tag', 'noindex');
    setPageSecurity(ctx);
    if (!enabled) throw notFound(CURATION_DISABLED_MESSAGE);
    await next();
  };

  const showSignIn: DeskKit['showSignIn'] = (ctx, answer) => {
    sendPage(
      ctx,
      <SignInPage
        site={site}
        csrf={csrfToken(ctx)}
        tokenSignIn={deps.tokenSignIn}
        oidcProvider={deps.oidcProvider}
        next={safeNext(answer.next)}
        notice={answer.notice}
        problem={answer.problem}
      />,
      { status: answer.status ?? 200, cacheControl: NO_STORE },
    );
  };

  const showError: DeskKit['showError'] = (ctx, status, message) => {
    sendPage(ctx, <ErrorPage site={site} status={status} message={message} />, { status, cacheControl: NO_STORE });
  };

  const sessionEnded = requireSignedIn((ctx) => showSignIn(ctx, { status: 401, problem: SESSION_ENDED }));
  const fromDesk: Middleware = async (ctx, next) => {
    const posted = ctx.request.body as FormFields;
    if (!isDeskFormPost(ctx, posted[DESK_CSRF_FIELD], publicOrigin)) return showError(ctx, 403, FORGED_FORM);
    await next();
  };
  const page = [headers, loadDeskSession(deps.sessions)];

  return {
    page,
    signedIn: [...page, sessionEnded],
    form: [...page, sessionEnded, formBody(), fromDesk],
    formWithin: (limit) => [...page, sessionEnded, formBody(limit), fromDesk],
    context: (ctx) => {
      const session = deskSessionOf(ctx);
      return { site, curator: session.curator, csrf: session.csrfToken };
    },
    showSignIn,
    showError,
  };
}
