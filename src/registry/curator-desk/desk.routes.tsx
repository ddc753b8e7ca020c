import { Router } from '@koa/router';
import type { Context } from 'koa';
import { statusOfDomainError } from '../../http/error-translator.js';
import { CurationError } from '../model/curation-operations.js';
import type { FormFields } from '../../http/form-body.js';
import { sendPage } from '../../web/render-page.js';
import { readFormValues, REQUEST_FORMS } from '../model/registration-fields.js';
import type { RequestKind } from '../model/registration-records.js';
import { deskCurator, DESK_PATH } from '../model/desk-auth.js';
import { MAX_DESK_PAGE, NO_STORE, type DeskKit } from './desk-kit.js';
import type { DeskService } from './desk.service.js';
import { DeskRequestPage, type RefusedAction, type RequestAction } from './pages/desk-request.page.js';
import { OpenRequestsPage, PAGE_PARAMETER, requestHref } from './pages/open-requests.page.js';
import { intParam } from '../model/search-params.js';

export interface DeskRouteDeps {
  kit: DeskKit;
  desk: DeskService;
}

const KINDS: readonly RequestKind[] = ['prefix', 'resource'];
const ACTIONS: readonly RequestAction[] = ['comment', 'reject', 'accept', 'amend'];
const ID = /^[0-9]{1,15}$/;
const DONE: Readonly<Record<RequestAction, string>> = {
  comment: 'Your comment was sent to the requester.',
  reject: 'The request was rejected; the requester is told.',
  accept: 'The request was accepted: the registry has it now.',
  amend: 'The request was amended.',
};
const NEEDS_TEXT: Partial<Record<RequestAction, string>> = {
  comment: 'Write the comment to the requester',
  reject: 'Give the reason for rejecting the request',
};
const UNKNOWN_REQUEST = 'There is no such request.';

/** The kind and session id of a request address, or undefined. */
function requestOf(ctx: Context): { kind: RequestKind; id: number } | undefined {
  const kind = ctx.params.kind as RequestKind;
  const id = ctx.params.id ?? '';
  return KINDS.includes(kind) && ID.test(id) ? { kind, id: Number(id) } : undefined;
}

/**
 * The desk's requests: the open ones (`/curation`), one request with its checks and history, and the
 * curator's actions on it as forms (comment, reject, accept, amend) calling the same curation service as
 * the JSON API, recorded with the signed-in curator. A done action is answered 303 back to the request's
 * page, so that reloading never sends it twice; a refused one shows the page again with why.
 */
export function deskRoutes(deps: DeskRouteDeps): Router {
  const { kit, desk } = deps;
  const router = new Router();

  router.get(DESK_PATH, ...kit.signedIn, async (ctx) => {
    const page = (kind: RequestKind) => intParam(ctx.query[PAGE_PARAMETER[kind]], 0, 0, MAX_DESK_PAGE);
    const lists = await desk.openRequests({ prefix: page('prefix'), resource: page('resource') });
    sendPage(ctx, <OpenRequestsPage desk={kit.context(ctx)} lists={lists} />, { cacheControl: NO_STORE });
  });

  const showRequest = async (ctx: Context, kind: RequestKind, id: number, answer: { status?: number; notice?: string; refused?: RefusedAction } = {}) => {
    const view = await desk.request(kind, id);
    if (!view) return kit.showError(ctx, 404, UNKNOWN_REQUEST);
    sendPage(ctx, <DeskRequestPage desk={kit.context(ctx)} view={view} notice={answer.notice} refused={answer.refused} />, {
      status: answer.status ?? 200,
      cacheControl: NO_STORE,
    });
  };

  router.get(`${DESK_PATH}/requests/:kind/:id`, ...kit.signedIn, async (ctx) => {
    const target = requestOf(ctx);
    if (!target) return kit.showError(ctx, 404, UNKNOWN_REQUEST);
    const done = ACTIONS.find((action) => action === ctx.query.done);
    await showRequest(ctx, target.kind, target.id, { notice: done && DONE[done] });
  });

  for (const action of ACTIONS) {
    router.post(`${DESK_PATH}/requests/:kind/:id/${action}`, ...kit.form, async (ctx) => {
      const target = requestOf(ctx);
      if (!target) return kit.showError(ctx, 404, UNKNOWN_REQUEST);
      const { kind, id } = target;
      const posted = ctx.request.body as FormFields;
      const curator = deskCurator(ctx);
      if (action === 'amend') {
        const values = readFormValues(REQUEST_FORMS[kind], posted);
        const outcome = await desk.amend(curator, kind, id, values, posted.note ?? '');
        if (!outcome.ok) return showRequest(ctx, kind, id, { status: outcome.status, refused: { action, values, text: posted.note, errors: outcome.errors, problems: outcome.problems } });
      } else {
        const text = posted.text ?? '';
        const needed = NEEDS_TEXT[action];
        if (needed && text.trim() === '') return showRequest(ctx, kind, id, { status: 422, refused: { action, text, errors: { text: needed }, problems: [] } });
        try {
          await desk.act(curator, kind, id, action, text);
        } catch (error) {
          if (!(error instanceof CurationError) || error.kind === 'unavailable') throw error;
          return showRequest(ctx, kind, id, { status: statusOfDomainError(error), refused: { action, text, errors: {}, problems: [error.message] } });
        }
      }
      ctx.status = 303;
      ctx.redirect(`${requestHref(kind, id)}?done=${action}`);
    });
  }

  return router;
}
