import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { FormFields } from '../../http/form-body.js';
import { sendPage } from '../../web/render-page.js';
import type { EditableCollection } from '../model/record-maintenance.js';
import { deskCurator, DESK_PATH } from '../model/desk-auth.js';
import { readRecordForm } from './desk-forms.js';
import { MAX_DESK_PAGE, NO_STORE, type DeskKit } from './desk-kit.js';
import type { DeskService, FormOutcome } from './desk.service.js';
import type { RecordRefusal } from './pages/record-form.js';
import { INSTITUTION_SEARCH_MAX, type InstitutionList } from './institution-list.service.js';
import { INSTITUTIONS_PATH, InstitutionsPage } from './pages/institutions.page.js';
import { intParam, textParam } from '../model/search-params.js';
import { deskInstitutionHref, deskNamespaceHref, deskResourceHref, FindNamespacePage, InstitutionDeskPage, NamespaceDeskPage, ResourceDeskPage } from './pages/registry-desk.page.js';

export interface DeskRegistryRouteDeps {
  kit: DeskKit;
  desk: DeskService;
  institutions: InstitutionList;
}

const ID = /^[0-9]{1,15}$/;
const DONE: Readonly<Record<string, string>> = {
  edit: 'Saved. The resolver serves the change within moments.',
  successor: 'The successor was saved.',
  deactivate: 'Deactivated.',
  reactivate: 'Reactivated.',
  delete: 'The institution was deleted. The curation log keeps what it held.',
};
const NOT_FOUND = 'There is no such record in the registry.';

interface PageAnswer {
  status?: number;
  refused?: RecordRefusal;
}

const idOf = (ctx: Context): number | undefined => (ID.test(ctx.params.id ?? '') ? Number(ctx.params.id) : undefined);
const noticeOf = (ctx: Context): string | undefined => (typeof ctx.query.done === 'string' ? DONE[ctx.query.done] : undefined);

/**
 * Registry maintenance at the desk: find a namespace; list and find institutions; edit a namespace,
 * provider or institution (forms calling the maintenance service the PATCH API uses, each refusal next to
 * its field); set a namespace's successor; deactivate and reactivate namespaces and providers; delete an
 * institution no provider uses. Every change is logged with the signed-in curator, and answered 303 back to
 * the record's page (a deletion: to the list of institutions).
 */
export function deskRegistryRoutes(deps: DeskRegistryRouteDeps): Router {
  const { kit, desk, institutions } = deps;
  const router = new Router();

  router.get(INSTITUTIONS_PATH, ...kit.signedIn, async (ctx) => {
    const text = textParam(ctx.query.q).slice(0, INSTITUTION_SEARCH_MAX);
    const list = await institutions.list(text, intParam(ctx.query.page, 0, 0, MAX_DESK_PAGE));
    sendPage(ctx, <InstitutionsPage desk={kit.context(ctx)} list={list} notice={noticeOf(ctx)} />, { cacheControl: NO_STORE });
  });

  router.get(`${DESK_PATH}/registry`, ...kit.signedIn, async (ctx) => {
    const text = typeof ctx.query.q === 'string' ? ctx.query.q.slice(0, 200) : '';
    const result = text.trim() === '' ? undefined : await desk.findNamespaces(text);
    sendPage(ctx, <FindNamespacePage desk={kit.context(ctx)} text={text} result={result} />, { cacheControl: NO_STORE });
  });

  const showNamespace = async (ctx: Context, prefixOrId: string | number, answer: PageAnswer = {}) => {
    const view = typeof prefixOrId === 'number' ? await desk.namespaceById(prefixOrId) : await desk.namespace(prefixOrId);
    if (!view) return kit.showError(ctx, 404, NOT_FOUND);
    const values = answer.refused?.form === 'edit' && answer.refused.values ? answer.refused.values : desk.formValues('namespaces', view.namespace);
    sendPage(ctx, <NamespaceDeskPage desk={kit.context(ctx)} view={view} values={values} notice={noticeOf(ctx)} refused={answer.refused} />, {
      status: answer.status ?? 200,
      cacheControl: NO_STORE,
    });
  };
  const showResource = async (ctx: Context, id: number, answer: PageAnswer = {}) => {
    const view = await desk.resource(id);
    if (!view) return kit.showError(ctx, 404, NOT_FOUND);
    const values = answer.refused?.form === 'edit' && answer.refused.values ? answer.refused.values : desk.formValues('resources', view.resource);
    sendPage(ctx, <ResourceDeskPage desk={kit.context(ctx)} view={view} values={values} notice={noticeOf(ctx)} refused={answer.refused} />, {
      status: answer.status ?? 200,
      cacheControl: NO_STORE,
    });
  };
  const showInstitution = async (ctx: Context, id: number, answer: PageAnswer = {}) => {
    const view = await desk.institution(id);
    if (!view) return kit.showError(ctx, 404, NOT_FOUND);
    const values = answer.refused?.form === 'edit' && answer.refused.values ? answer.refused.values : desk.formValues('institutions', view.institution);
    sendPage(ctx, <InstitutionDeskPage desk={kit.context(ctx)} view={view} values={values} notice={noticeOf(ctx)} refused={answer.refused} />, {
      status: answer.status ?? 200,
      cacheControl: NO_STORE,
    });
  };

  router.get(`${DESK_PATH}/namespaces/:prefix`, ...kit.signedIn, (ctx) => showNamespace(ctx, ctx.params.prefix ?? ''));
  router.get(`${DESK_PATH}/resources/:id`, ...kit.signedIn, async (ctx) => {
    const id = idOf(ctx);
    return id === undefined ? kit.showError(ctx, 404, NOT_FOUND) : showResource(ctx, id);
  });
  router.get(`${DESK_PATH}/institutions/:id`, ...kit.signedIn, async (ctx) => {
    const id = idOf(ctx);
    return id === undefined ? kit.showError(ctx, 404, NOT_FOUND) : showInstitution(ctx, id);
  });

  /** After a change: back to the record's page (303), or the page again with the refusal. */
  async function answer(ctx: Context, outcome: FormOutcome, done: string, back: () => Promise<string | undefined>, again: (answer: PageAnswer) => Promise<void>, refused: Omit<RecordRefusal, 'errors' | 'problems'>) {
    if (!outcome.ok) return again({ status: outcome.status, refused: { ...refused, errors: outcome.errors, problems: outcome.problems } });
    const href = await back();
    if (href === undefined) return kit.showError(ctx, 404, NOT_FOUND);
    ctx.status = 303;
    ctx.redirect(`${href}?done=${done}`);
  }

  const namespaceHrefOf = async (id: number) => {
    const view = await desk.namespaceById(id);
    return view && deskNamespaceHref(view.namespace.prefix);
  };

  const editRoute = (collection: EditableCollection, base: string, show: (ctx: Context, id: number, answer: PageAnswer) => Promise<void>, hrefOf: (id: number) => Promise<string | undefined>) => {
    router.post(`${DESK_PATH}/${base}/:id/edit`, ...kit.form, async (ctx) => {
      const id = idOf(ctx);
      if (id === undefined) return kit.showError(ctx, 404, NOT_FOUND);
      const posted = ctx.request.body as FormFields;
      const values = readRecordForm(collection, posted);
      const outcome = await desk.edit(deskCurator(ctx), collection, id, values, posted.modified ?? '', ctx.ip);
      await answer(ctx, outcome, 'edit', () => hrefOf(id), (a) => show(ctx, id, a), { form: 'edit', values });
    });
  };
  editRoute('namespaces', 'namespaces', (ctx, id, a) => showNamespace(ctx, id, a), namespaceHrefOf);
  editRoute('resources', 'resources', showResource, async (id) => deskResourceHref(id));
  editRoute('institutions', 'institutions', showInstitution, async (id) => deskInstitutionHref(id));

  router.post(`${DESK_PATH}/namespaces/:id/successor`, ...kit.form, async (ctx) => {
    const id = idOf(ctx);
    if (id === undefined) return kit.showError(ctx, 404, NOT_FOUND);
    const posted = ctx.request.body as FormFields;
    const successor = posted.successor ?? '';
    const outcome = await desk.setSuccessor(deskCurator(ctx), id, successor, posted.modified ?? '', ctx.ip);
    await answer(ctx, outcome, 'successor', () => namespaceHrefOf(id), (a) => showNamespace(ctx, id, a), { form: 'successor', values: { successor } });
  });

  for (const change of ['deactivate', 'reactivate'] as const) {
    router.post(`${DESK_PATH}/namespaces/:id/${change}`, ...kit.form, async (ctx) => {
      const id = idOf(ctx);
      if (id === undefined) return kit.showError(ctx, 404, NOT_FOUND);
      const outcome = await desk.lifecycle(deskCurator(ctx), 'namespace', change, id, ctx.ip);
      await answer(ctx, outcome, change, () => namespaceHrefOf(id), (a) => showNamespace(ctx, id, a), { form: 'lifecycle' });
    });
    router.post(`${DESK_PATH}/resources/:id/${change}`, ...kit.form, async (ctx) => {
      const id = idOf(ctx);
      if (id === undefined) return kit.showError(ctx, 404, NOT_FOUND);
      const urlPattern = (ctx.request.body as FormFields).urlPattern;
      const outcome = await desk.lifecycle(deskCurator(ctx), 'resource', change, id, ctx.ip, urlPattern);
      await answer(ctx, outcome, change, async () => deskResourceHref(id), (a) => showResource(ctx, id, a), { form: 'lifecycle', values: { urlPattern: urlPattern ?? '' } });
    });
  }

  // Only an institution no provider uses; the refusal is shown on its page, which lists those that use it.
  router.post(`${DESK_PATH}/institutions/:id/delete`, ...kit.form, async (ctx) => {
    const id = idOf(ctx);
    if (id === undefined) return kit.showError(ctx, 404, NOT_FOUND);
    const outcome = await desk.deleteInstitution(deskCurator(ctx), id);
    await answer(ctx, outcome, 'delete', async () => INSTITUTIONS_PATH, (a) => showInstitution(ctx, id, a), { form: 'delete' });
  });

  return router;
}
