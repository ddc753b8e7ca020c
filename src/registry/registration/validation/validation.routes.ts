import { Router } from '@koa/router';
import type { Context } from 'koa';
import { errorEnvelope } from '../../../http/envelope.js';
import { jsonBody } from '../../../http/json-body.js';
import { HttpError } from '../../../http/http-error.js';
import { CheckBusyError, CheckUnavailableError } from '../checks.js';
import type { RegistrationValidator } from '../registration-validator.js';
import type { RequestKind } from '../request-kind.js';
import { PREFIX_VALIDATION_ENDPOINTS, RESOURCE_VALIDATION_ENDPOINTS, type ValidationEndpoint } from './endpoints.js';
import { InvalidPayloadError, normaliseRegistrationPayload, readEnvelopePayload } from './payload.js';
import { checksUnavailable, PAYLOAD_REQUIRED, validationFailed, validationOkJson } from './validation.presenter.js';

const AREAS: readonly [RequestKind, string, readonly ValidationEndpoint[]][] = [
  ['prefix', '/prefixRegistrationApi', PREFIX_VALIDATION_ENDPOINTS],
  ['resource', '/resourceManagementApi', RESOURCE_VALIDATION_ENDPOINTS],
];

/**
 * POST /prefixRegistrationApi/validate* and /resourceManagementApi/validate*: one field (or pair of fields)
 * of a registration request, answered 200 `VALIDATION OK` or 400 `VALIDATION FAILED` with the first failing
 * message; 400 `Payload is required` without a payload (the resource endpoints too: the reference's NPE 500
 * is not reproduced); 503 with Retry-After when the URL or pattern checks cannot be started.
 */
export function validationRoutes(validator: RegistrationValidator): Router {
  const router = new Router();
  const readBody = jsonBody();
  for (const [kind, base, endpoints] of AREAS) {
    for (const target of endpoints) {
      router.post(`${base}/${target.name}`, readBody, (ctx) => answerValidation(ctx, kind, target, validator));
    }
  }
  return router;
}

async function answerValidation(ctx: Context, kind: RequestKind, target: ValidationEndpoint, validator: RegistrationValidator): Promise<void> {
  let message: string | null;
  try {
    const raw = readEnvelopePayload(ctx.request.body);
    if (raw === null) {
      ctx.status = 400;
      ctx.body = errorEnvelope(PAYLOAD_REQUIRED);
      return;
    }
    const payload = normaliseRegistrationPayload(raw, target.normalise);
    message = await validator.validateField(target, kind, payload, ctx.ip);
  } catch (error) {
    if (error instanceof InvalidPayloadError) message = error.message;
    else if (error instanceof CheckBusyError) throw new HttpError(error.status, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
    else if (error instanceof CheckUnavailableError) throw checksUnavailable();
    else throw error;
  }
  if (message === null) {
    ctx.type = 'application/json';
    ctx.body = validationOkJson(kind);
  } else {
    ctx.status = 400;
    ctx.body = validationFailed(kind, message);
  }
}
