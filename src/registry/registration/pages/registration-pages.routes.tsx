import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { DomainError, notFound } from '../../../core/domain-error.js';
import { jsonBody } from '../../../http/json-body.js';
import { formBody, type FormFields } from '../../../http/form-body.js';
import { CSRF_FIELD, csrfToken, isOwnFormPost } from '../../../web/csrf.js';
import { sendPage, servingPage } from '../../../web/render-page.js';
import type { Site } from '../../../web/site.js';
import { foundInstitutionJson } from '../ror/ror.presenter.js';
import type { RorService } from '../ror/ror.service.js';
import { acceptedAnswer } from '../submission/submission.presenter.js';
import type { SubmissionService } from '../submission/submission.service.js';
import { NotFoundRequestPage } from './request-not-found.page.js';
import { messagesByField, payloadFromForm, readFormValues, REQUEST_FORMS, type FormValues, type RequestForm } from '../../model/registration-fields.js';
import { RegistrationFormPage, type FieldNote } from './registration-form.page.js';
import { RequestStatusPage } from './request-status.page.js';
import type { RegistrationValidator } from '../registration-validator.js';
import { PREFIX_VALIDATION_ENDPOINTS, RESOURCE_VALIDATION_ENDPOINTS, type ValidationEndpoint } from '../validation/endpoints.js';
import type { RequestKind } from '../../model/request-kind.js';
import { plainMessage, presentFieldCheck, unknownRorId } from './plain-messages.js';

const VALIDATION_ENDPOINTS: Readonly<Record<RequestKind, readonly ValidationEndpoint[]>> = {
  prefix: PREFIX_VALIDATION_ENDPOINTS,
  resource: RESOURCE_VALIDATION_ENDPOINTS,
};

export interface RegistrationPagesDeps {
  site: Site;
  submissions: SubmissionService;
  /** The field checks the form's script asks as it is typed (the JSON validators' checks, in the pages' words). */
  validator: RegistrationValidator;
  ror: RorService;
  /** REGISTRATION_MIN_DESCRIPTION_LENGTH, for the descriptions' hints. */
  minDescriptionLength: number;
  /** Whether the request is a curator's (no daily quota of registration requests). */
  isCurator?: (ctx: Context) => Promise<boolean>;
}

const EXPIRED_FORM = 'The form had expired, or was not sent from this site. Check the values and send it again.';
const NO_STORE = 'no-store';

interface FormAnswer {
  status?: number;
  values?: FormValues;
  errors?: Record<string, string>;
  problems?: string[];
  note?: FieldNote;
}

/** Marks the request as a page's before the body is read, so that a refused body is answered as a page. */
const pageRequest: Middleware = async (ctx, next) => {
  servingPage(ctx);
  await next();
};

/**
 * The request forms (GET shows one, POST validates and stores it as the JSON API does, through the same
 * SubmissionService) and the requester's status page with its answer form. Every POST is a form of these
 * pages, checked against forgery (csrf.ts); a stored request is answered 303 to its status page, so that
 * reloading never sends it twice.
 */
export function registrationPagesRoutes(deps: RegistrationPagesDeps): Router {
  const { site } = deps;
  const router = new Router();
  const publicOrigin = new URL(site.publicRegistryUrl).origin;
  const readForm = formBody();
  const readJson = jsonBody();

  const showForm = (ctx: Context, form: RequestForm, answer: FormAnswer = {}) => {
    sendPage(
      ctx,
      <RegistrationFormPage
        site={site}
        form={form}
        values={answer.values ?? {}}
        errors={answer.errors ?? {}}
        problems={answer.problems ?? []}
        note={answer.note}
        csrf={csrfToken(ctx)}
        minDescriptionLength={deps.minDescriptionLength}
      />,
      { status: answer.status ?? 200, cacheControl: NO_STORE },
    );
  };

  for (const form of Object.values(REQUEST_FORMS)) {
    router.get(form.path, pageRequest, (ctx) => {
      // A namespace page may link here with its prefix filled in.
      const prefix = form.kind === 'resource' && typeof ctx.query.namespacePrefix === 'string' ? ctx.query.namespacePrefix.slice(0, 255) : '';
      showForm(ctx, form, { values: prefix ? { namespacePrefix: prefix } : {} });
    });

    // The form's field check (registration-form.js): a JSON validator endpoint's verdict, worded as the page
    // words it (plain-messages.ts). The JSON API's messages stay the reference's, for the clients that read them.
    const endpoints = new Map(VALIDATION_ENDPOINTS[form.kind].map((endpoint) => [endpoint.name, endpoint]));
    router.post(`${form.path}/check/:validator`, readJson, async (ctx) => {
      const target = endpoints.get(ctx.params.validator ?? '');
      if (!target) throw notFound(`No field check named '${(ctx.params.validator ?? '').slice(0, 100)}'`);
      const verdict = await deps.validator.validateField(target, form.kind, ctx.request.body, ctx.ip);
      ctx.set('Cache-Control', NO_STORE);
      ctx.status = verdict.kind === 'passed' ? 200 : 400;
      ctx.body = presentFieldCheck(form.kind, verdict);
    });

    router.post(form.path, pageRequest, readForm, async (ctx) => {
      const posted = ctx.request.body as FormFields;
      const values = readFormValues(form, posted);
      if (!isOwnFormPost(ctx, posted[CSRF_FIELD], publicOrigin)) return showForm(ctx, form, { status: 403, values, problems: [EXPIRED_FORM] });
      // Enter in a field of a browser that ignores the hidden default button sends the lookup button's value.
      if (posted.action === 'ror-lookup' && (values.institutionRorId ?? '').trim() !== '') {
        return showForm(ctx, form, await lookUpInstitution(deps.ror, values));
      }
      await sendRequest(ctx, form, values);
    });
  }

  async function sendRequest(ctx: Context, form: RequestForm, values: FormValues): Promise<void> {
    let token: string | undefined;
    const outcome = await deps.submissions.submitRegistration(
      {
        kind: form.kind,
        endpoint: `page:${form.path}`,
        body: { apiVersion: '1.0', payload: payloadFromForm(form, values) },
        client: ctx.ip,
        curator: (await deps.isCurator?.(ctx)) ?? false,
      },
      (issued) => {
        token = issued;
        return acceptedAnswer(issued);
      },
    );
    if (outcome.kind === 'accepted' && token !== undefined) {
      ctx.status = 303;
      ctx.set('Cache-Control', NO_STORE);
      ctx.redirect(`/requests/${token}?sent=1`);
      return;
    }
    if (outcome.kind === 'incomplete') {
      ctx.set('Retry-After', String(outcome.error.retryAfterSeconds));
      return showForm(ctx, form, { status: 503, values, problems: [outcome.error.message] });
    }
    if (outcome.kind === 'over-quota') {
      ctx.set('Retry-After', String(outcome.error.quota?.resetSeconds ?? 60));
      return showForm(ctx, form, { status: 429, values, problems: [outcome.error.message] });
    }
    if (outcome.kind === 'refused' && outcome.problem === 'invalid') {
      const byField = messagesByField(form, outcome.failures);
      const placed = new Set(Object.values(byField));
      const word = (message: string) => plainMessage(form.kind, message);
      const errors = Object.fromEntries(Object.entries(byField).map(([field, message]) => [field, word(message)]));
      return showForm(ctx, form, { status: 422, values, errors, problems: outcome.messages.filter((m) => !placed.has(m)).map(word) });
    }
    // Neither of the others happens to a form's payload (no Idempotency-Key, always an envelope).
    showForm(ctx, form, { status: 400, values, problems: ['The request could not be read; please send it again.'] });
  }

  // The requester's page: the token is in the address, so it must not leak through Referer or a cache.
  // same-origin rather than no-referrer: with no-referrer the browser sends `Origin: null` on the page's own
  // form, which the forgery check refuses.
  const privatePage: Middleware = async (ctx, next) => {
    servingPage(ctx);
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('X-Robots-Tag', 'noindex');
    await next();
  };

  const showStatus = async (ctx: Context, token: string, answer: { status?: number; reply?: { value: string; error: string }; notice?: string } = {}) => {
    const found = await deps.submissions.findRegistrationStatus(token);
    if (!found) {
      sendPage(ctx, <NotFoundRequestPage site={site} />, { status: 404, cacheControl: NO_STORE });
      return;
    }
    sendPage(ctx, <RequestStatusPage site={site} token={token} status={found} csrf={csrfToken(ctx)} reply={answer.reply} notice={answer.notice} />, {
      status: answer.status ?? 200,
      cacheControl: NO_STORE,
    });
  };

  router.get('/requests/:token', privatePage, async (ctx) => {
    const notice =
      ctx.query.sent === '1'
        ? 'Your request was sent. Keep the address of this page: it is where you follow the request (it was e-mailed to you too).'
        : ctx.query.answered === '1'
          ? 'Your answer was sent to the curators.'
          : undefined;
    await showStatus(ctx, ctx.params.token ?? '', { notice });
  });

  router.post('/requests/:token/comment', privatePage, readForm, async (ctx) => {
    const token = ctx.params.token ?? '';
    const posted = ctx.request.body as FormFields;
    const value = posted.comment ?? '';
    if (!isOwnFormPost(ctx, posted[CSRF_FIELD], publicOrigin)) return showStatus(ctx, token, { status: 403, reply: { value, error: EXPIRED_FORM } });
    const found = await deps.submissions.findRegistrationStatus(token);
    if (!found) return showStatus(ctx, token);
    try {
      await deps.submissions.replyAsRequester(found.kind, token, value, 'status page');
    } catch (error) {
      if (!(error instanceof DomainError) || (error.kind !== 'invalid' && error.kind !== 'conflict')) throw error;
      return showStatus(ctx, token, { status: error.kind === 'invalid' ? 422 : 409, reply: { value, error: error.message } });
    }
    ctx.status = 303;
    ctx.set('Cache-Control', NO_STORE);
    ctx.redirect(`/requests/${token}?answered=1#history`);
  });

  return router;
}

/** The form's ROR lookup without script: the institution fields filled from the registry or ROR. */
async function lookUpInstitution(ror: RorService, values: FormValues): Promise<FormAnswer> {
  const rorId = (values.institutionRorId ?? '').trim();
  try {
    const found = await ror.findInstitution(rorId);
    if (!found) {
      return { values, note: { field: 'institutionRorId', problem: true, text: unknownRorId(ror.asksRor) } };
    }
    const institution = foundInstitutionJson(found);
    return {
      values: {
        ...values,
        institutionName: institution.name,
        institutionHomeUrl: institution.homeUrl,
        institutionDescription: institution.description,
        institutionLocation: institution.location.countryCode ?? '',
      },
      note: {
        field: 'institutionRorId',
        problem: false,
        text: found.source === 'registry' ? `Filled in from the registry’s institution “${institution.name}”.` : `Filled in from ROR: “${institution.name}”.`,
      },
    };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { values, note: { field: 'institutionRorId', problem: true, text: error.message } };
  }
}
