import { Router } from '@koa/router';
import type { Context } from 'koa';
import { errorEnvelope } from '../../../http/envelope.js';
import { HttpError } from '../../../http/http-error.js';
import { jsonBody } from '../../../http/json-body.js';
import type { NotificationSettings } from '../../curation/notification-outbox.js';
import { InvalidPayloadError, normaliseRegistrationPayload, readEnvelopePayload } from '../validation/payload.js';
import type { RegistrationDeps, RegistrationPayload } from '../validation/run-chains.js';
import { PAYLOAD_REQUIRED } from '../validation/validation.presenter.js';
import { ChecksIncompleteError, validateRequest } from './checked-validation.js';
import {
  hashRequestBody,
  jsonAnswer,
  KEY_REUSED_MESSAGE,
  readIdempotencyKey,
  type RecordedAnswer,
  type StoredAnswer,
} from './idempotency.js';
import { isTokenShaped, newSessionToken, type RequestKind } from './registration-records.js';
import { presentStatus, submissionAccepted, submissionRefused, UNKNOWN_TOKEN_MESSAGE } from './submission.presenter.js';
import type { SubmissionStore } from './submission.service.js';

export interface SubmissionRouteDeps {
  submissions: SubmissionStore;
  registration: RegistrationDeps;
  notifications: NotificationSettings;
}

const AREAS: readonly { kind: RequestKind; base: string; submit: string }[] = [
  { kind: 'prefix', base: '/prefixRegistrationApi', submit: 'registerPrefix' },
  { kind: 'resource', base: '/resourceManagementApi', submit: 'registerResource' },
];

/**
 * Turns a check that did not answer into 503 (429 when the requester has too many checks under way) with
 * Retry-After: nothing was stored; the client sends again.
 */
export function checksIncomplete(error: ChecksIncompleteError): HttpError {
  return new HttpError(error.status, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
}

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
    const stored = await deps.submissions.findStoredAnswer(endpoint, key);
    if (stored) return sendStored(ctx, stored, requestHash);
  }

  let raw: Record<string, unknown> | null;
  try {
    raw = readEnvelopePayload(body);
  } catch (error) {
    if (error instanceof InvalidPayloadError) throw new HttpError(400, error.message);
    throw error;
  }
  if (raw === null) {
    ctx.status = 400;
    ctx.body = errorEnvelope(PAYLOAD_REQUIRED);
    return;
  }
  let messages: string[];
  let payload: RegistrationPayload;
  try {
    payload = normaliseRegistrationPayload(raw);
    messages = await validateRequest(kind, payload, { ...deps.registration, client: ctx.ip });
  } catch (error) {
    if (error instanceof ChecksIncompleteError) throw checksIncomplete(error);
    if (!(error instanceof InvalidPayloadError)) throw error;
    ctx.status = 400;
    ctx.body = submissionRefused(kind, [error.message], null);
    return;
  }
  if (messages.length > 0) {
    ctx.status = 400;
    ctx.body = submissionRefused(kind, messages, payload.providerName);
    return;
  }

  const token = newSessionToken();
  const answer = jsonAnswer(200, submissionAccepted(token));
  const outcome = await deps.submissions.storeRegistration(kind, payload, {
    token,
    notifications: deps.notifications,
    idempotency: key === undefined ? undefined : { claim: { endpoint, key, requestHash }, answer },
  });
  if (!outcome.stored) {
    // A concurrent submission with the same key committed first: answer as its retry would be answered.
    const stored = key === undefined ? undefined : await deps.submissions.findStoredAnswer(endpoint, key);
    if (!stored) throw new Error('idempotency key taken but not found');
    return sendStored(ctx, stored, requestHash);
  }
  sendAnswer(ctx, answer);
}

async function answerStatus(ctx: Context, kind: RequestKind, deps: SubmissionRouteDeps): Promise<void> {
  ctx.set('Cache-Control', 'no-store');
  const token = ctx.params.token ?? '';
  const status = isTokenShaped(token) ? await deps.submissions.readRegistrationStatus(kind, token) : undefined;
  if (!status) throw new HttpError(404, UNKNOWN_TOKEN_MESSAGE);
  ctx.body = presentStatus(status);
}
