import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Db } from '../../../db/knex.js';
import { errorEnvelope } from '../../../http/envelope.js';
import { HttpError } from '../../../http/http-error.js';
import { jsonBody } from '../../../http/json-body.js';
import type { NotificationSettings } from '../../curation/notification-outbox.js';
import { readEnvelopePayload } from '../validation/payload.js';
import type { RegistrationDeps } from '../validation/run-chains.js';
import { PAYLOAD_REQUIRED } from '../validation/validation.presenter.js';
import { checkRequest } from './checked-validation.js';
import {
  findStoredAnswer,
  hashRequestBody,
  jsonAnswer,
  KEY_REUSED_MESSAGE,
  readIdempotencyKey,
  type RecordedAnswer,
  type StoredAnswer,
} from './idempotency.js';
import { isTokenShaped, newSessionToken, type RequestKind } from './registration-records.js';
import { presentStatus, submissionAccepted, submissionRefused, UNKNOWN_TOKEN_MESSAGE } from './submission.presenter.js';
import { readRegistrationStatus, storeRegistration } from './submission.service.js';

export interface SubmissionRouteDeps {
  db: Db;
  registration: RegistrationDeps;
  notifications: NotificationSettings;
}

const AREAS: readonly { kind: RequestKind; base: string; submit: string }[] = [
  { kind: 'prefix', base: '/prefixRegistrationApi', submit: 'registerPrefix' },
  { kind: 'resource', base: '/resourceManagementApi', submit: 'registerResource' },
];

/**
 * POST /prefixRegistrationApi/registerPrefix and /resourceManagementApi/registerResource (public): every
 * validation chain, then the request, its session and its START event in one transaction; the answer
 * carries the requester's token. GET .../status/{token}: the requester's view of the request.
 */
export function submissionRoutes(deps: SubmissionRouteDeps): Router {
  const router = new Router();
  const readBody = jsonBody();
  for (const area of AREAS) {
    router.post(`${area.base}/${area.submit}`, readBody, (ctx) => submit(ctx, area.kind, area.submit, deps));
    router.get(`${area.base}/status/:token`, (ctx) => answerStatus(ctx, area.kind, deps));
  }
  return router;
}

/** Sends the recorded text as it is: a replay must be the first answer's bytes, not a re-serialisation. */
function sendAnswer(ctx: Context, answer: RecordedAnswer): void {
  ctx.status = answer.status;
  // Set ahead of the body: Koa would otherwise call a string body text/plain.
  ctx.set('Content-Type', answer.contentType);
  ctx.body = answer.body;
}

function sendStored(ctx: Context, stored: StoredAnswer, requestHash: string): void {
  if (stored.requestHash !== requestHash) throw new HttpError(422, KEY_REUSED_MESSAGE);
  ctx.set('Idempotent-Replayed', 'true');
  sendAnswer(ctx, stored);
}

async function submit(ctx: Context, kind: RequestKind, endpoint: string, deps: SubmissionRouteDeps): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  const key = readIdempotencyKey(ctx.get('Idempotency-Key') || undefined);
  const body: unknown = ctx.request.body;
  const requestHash = key === undefined ? '' : hashRequestBody(body);
  if (key !== undefined) {
    const stored = await findStoredAnswer(deps.db, endpoint, key);
    if (stored) return sendStored(ctx, stored, requestHash);
  }

  const raw = readEnvelopePayload(body);
  if (raw === null) {
    ctx.status = 400;
    ctx.body = errorEnvelope(PAYLOAD_REQUIRED);
    return;
  }
  // A check that did not answer (ChecksIncompleteError) is no verdict: the error mapping answers it.
  const verdict = await checkRequest(kind, raw, { ...deps.registration, client: ctx.ip });
  if (!verdict.valid) {
    ctx.status = 400;
    ctx.body = submissionRefused(kind, verdict.messages, verdict.providerName);
    return;
  }
  const { payload } = verdict;

  const token = newSessionToken();
  const answer = jsonAnswer(200, submissionAccepted(token));
  const outcome = await storeRegistration(deps.db, kind, payload, {
    token,
    notifications: deps.notifications,
    idempotency: key === undefined ? undefined : { claim: { endpoint, key, requestHash }, answer },
  });
  if (!outcome.stored) {
    // A concurrent submission with the same key committed first: answer as its retry would be answered.
    const stored = key === undefined ? undefined : await findStoredAnswer(deps.db, endpoint, key);
    if (!stored) throw new Error('idempotency key taken but not found');
    return sendStored(ctx, stored, requestHash);
  }
  sendAnswer(ctx, answer);
}

async function answerStatus(ctx: Context, kind: RequestKind, deps: SubmissionRouteDeps): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  const token = ctx.params.token ?? '';
  const status = isTokenShaped(token) ? await readRegistrationStatus(deps.db, kind, token) : undefined;
  if (!status) throw new HttpError(404, UNKNOWN_TOKEN_MESSAGE);
  ctx.body = presentStatus(status);
}
