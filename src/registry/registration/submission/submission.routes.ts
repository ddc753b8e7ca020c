import { Router } from '@koa/router';
import type { Context } from 'koa';
import { envelope, errorEnvelope } from '../../../http/envelope.js';
import { DomainError, invalid, notFound } from '../../../core/domain-error.js';
import { jsonBody } from '../../../http/json-body.js';
import { PAYLOAD_REQUIRED } from '../validation/validation.presenter.js';
import { KEY_REUSED_MESSAGE, readIdempotencyKey, type RecordedAnswer } from './idempotency.js';
import type { RequestKind } from '../../model/registration-records.js';
import { acceptedAnswer, presentStatus, submissionRefused, UNKNOWN_TOKEN_MESSAGE } from './submission.presenter.js';
import type { SubmissionRefusal, SubmissionService } from './submission.service.js';

export interface SubmissionRouteDeps {
  submissions: SubmissionService;
  /** Whether the request is a curator's (no daily quota of registration requests). */
  isCurator?: (ctx: Context) => Promise<boolean>;
}

const AREAS: readonly { kind: RequestKind; base: string; submit: string }[] = [
  { kind: 'prefix', base: '/prefixRegistrationApi', submit: 'registerPrefix' },
  { kind: 'resource', base: '/resourceManagementApi', submit: 'registerResource' },
];

/**
 * POST /prefixRegistrationApi/registerPrefix and /resourceManagementApi/registerResource (public): every
 * validation chain, then the request, its session and its START event in one transaction; the answer
 * carries the requester's token. GET .../status/{token}: the requester's view of the request; POST
 * .../status/{token}/comment `{apiVersion, payload: {comment}}`: the requester's answer to the curators
 * (a COMMENT event by the requester; 409 once the request is closed).
 */
export function submissionRoutes(deps: SubmissionRouteDeps): Router {
  const router = new Router();
  const readBody = jsonBody();
  for (const area of AREAS) {
    router.post(`${area.base}/${area.submit}`, readBody, (ctx) => submit(ctx, area.kind, area.submit, deps));
    router.get(`${area.base}/status/:token`, (ctx) => answerStatus(ctx, area.kind, deps.submissions));
    router.post(`${area.base}/status/:token/comment`, readBody, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      await deps.submissions.replyAsRequester(area.kind, ctx.params.token ?? '', readReplyComment(ctx.request.body), 'API');
      ctx.body = envelope({ comment: null });
    });
  }
  return router;
}

function readReplyComment(body: unknown): unknown {
  const payload = typeof body === 'object' && body !== null ? (body as { payload?: unknown }).payload : undefined;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw invalid(PAYLOAD_REQUIRED);
  return (payload as { comment?: unknown }).comment;
}

/** Sends the recorded text as it is: a replay must be the first answer's bytes, not a re-serialisation. */
function sendAnswer(ctx: Context, answer: RecordedAnswer): void {
  ctx.status = answer.status;
  // Set ahead of the body: Koa would otherwise call a string body text/plain.
  ctx.set('Content-Type', answer.contentType);
  ctx.body = answer.body;
}

function sendRefusal(ctx: Context, kind: RequestKind, refusal: SubmissionRefusal): void {
  if (refusal.problem === 'malformed-envelope') throw invalid(refusal.message);
  if (refusal.problem === 'key-reused') throw new DomainError('unprocessable', KEY_REUSED_MESSAGE);
  ctx.status = 400;
  ctx.body = refusal.problem === 'no-payload' ? errorEnvelope(PAYLOAD_REQUIRED) : submissionRefused(kind, refusal.messages, refusal.providerName);
}

async function submit(ctx: Context, kind: RequestKind, endpoint: string, deps: SubmissionRouteDeps): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  const idempotencyKey = readIdempotencyKey(ctx.get('Idempotency-Key') || undefined);
  const curator = (await deps.isCurator?.(ctx)) ?? false;
  const outcome = await deps.submissions.submitRegistration({ kind, endpoint, body: ctx.request.body, idempotencyKey, client: ctx.ip, curator }, acceptedAnswer);
  switch (outcome.kind) {
    case 'accepted':
      return sendAnswer(ctx, outcome.answer);
    case 'replayed':
      ctx.set('Idempotent-Replayed', 'true');
      return sendAnswer(ctx, outcome.answer);
    case 'refused':
      return sendRefusal(ctx, kind, outcome);
    case 'incomplete':
    case 'over-quota':
      // No verdict (a check did not answer), or the address has filed its requests of the day: the error
      // mapping answers 503 or 429 with Retry-After.
      throw outcome.error;
  }
}

async function answerStatus(ctx: Context, kind: RequestKind, submissions: SubmissionService): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  const status = await submissions.registrationStatus(kind, ctx.params.token ?? '');
  if (!status) throw notFound(UNKNOWN_TOKEN_MESSAGE);
  ctx.body = presentStatus(status);
}
