import { Router } from '@koa/router';
import type { Context } from 'koa';
import { errorEnvelope } from '../../../http/envelope.js';
import { jsonBody } from '../../../http/json-body.js';
import type { RegistrationValidator } from '../registration-validator.js';
import type { RequestKind } from '../../model/request-kind.js';
import { PREFIX_VALIDATION_ENDPOINTS, RESOURCE_VALIDATION_ENDPOINTS, type ValidationEndpoint } from './endpoints.js';
import type { PrefixCollisionCheck } from '../../model/collision-warnings.js';
import { readEnvelopePayload } from '../../model/registration-payload.js';
import { PAYLOAD_REQUIRED, validationFailed, validationOkJson, validationOkWithWarnings } from './validation.presenter.js';

const AREAS: readonly [RequestKind, string, readonly ValidationEndpoint[]][] = [
  ['prefix', '/prefixRegistrationApi', PREFIX_VALIDATION_ENDPOINTS],
  ['resource', '/resourceManagementApi', RESOURCE_VALIDATION_ENDPOINTS],
];

/**
 * POST /prefixRegistrationApi/validate* and /resourceManagementApi/validate*: one field (or pair of fields)
 * of a registration request, answered 200 `VALIDATION OK` or 400 `VALIDATION FAILED` with the first failing
 * message; 400 `Payload is required` without a payload (the resource endpoints too: the reference's NPE 500
 * is not reproduced); 503 with Retry-After when the URL or pattern checks cannot be started. A requested
 * prefix that passes but is another registry's (reference_prefixes) is answered 200 with a trailing
 * `warnings` list in the payload.
 */
export function validationRoutes(validator: RegistrationValidator, collisions?: PrefixCollisionCheck): Router {
  const router = new Router();
  const readBody = jsonBody();
  for (const [kind, base, endpoints] of AREAS) {
    for (const target of endpoints) {
      // Issue 15 item 6: a requested prefix that passes is also looked up in other registries' lists.
      const warn = kind === 'prefix' && target.name === 'validateRequestedPrefix' ? collisions : undefined;
      router.post(`${base}/${target.name}`, readBody, (ctx) => answerValidation(ctx, kind, target, validator, warn));
    }
  }
  return router;
}

/** The requested prefix of a validation body, as sent (the validator has checked its shape by then). */
function requestedPrefixOf(body: unknown): string {
  const prefix = readEnvelopePayload(body)?.requestedPrefix;
  return typeof prefix === 'string' ? prefix : '';
}

async function answerValidation(
  ctx: Context,
  kind: RequestKind,
  target: ValidationEndpoint,
  validator: RegistrationValidator,
  collisions?: PrefixCollisionCheck,
): Promise<void> {
  const verdict = await validator.validateField(target, kind, ctx.request.body, ctx.ip);
  if (verdict.kind === 'payload-required') {
    ctx.status = 400;
    ctx.body = errorEnvelope(PAYLOAD_REQUIRED);
  } else if (verdict.kind === 'passed') {
    const warnings = collisions ? await collisions(requestedPrefixOf(ctx.request.body)) : [];
    ctx.type = 'application/json';
    ctx.body = warnings.length > 0 ? validationOkWithWarnings(warnings) : validationOkJson(kind);
  } else {
    ctx.status = 400;
    ctx.body = validationFailed(kind, verdict.message);
  }
}
