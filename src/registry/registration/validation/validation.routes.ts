import { Router } from '@koa/router';
import type { Context } from 'koa';
import { errorEnvelope } from '../../../http/envelope.js';
import { jsonBody } from '../../../http/json-body.js';
import { PREFIX_VALIDATION_ENDPOINTS, RESOURCE_VALIDATION_ENDPOINTS, type ValidationEndpoint } from './endpoints.js';
import { validateField } from './field-validation.js';
import { CachedRegistryLookups } from './registry-lookups.js';
import type { RegistrationDeps, RequestKind } from './validation-context.js';
import { PAYLOAD_REQUIRED, validationFailed, validationOkJson } from './validation.presenter.js';

const AREAS: readonly [RequestKind, string, readonly ValidationEndpoint[]][] = [
  ['prefix', '/prefixRegistrationApi', PREFIX_VALIDATION_ENDPOINTS],
  ['resource', '/resourceManagementApi', RESOURCE_VALIDATION_ENDPOINTS],
];

/**
 * POST /prefixRegistrationApi/validate* and /resourceManagementApi/validate*: one field (or pair of fields)
 * of a registration request, answered 200 `VALIDATION OK` or 400 `VALIDATION FAILED` with the first failing
 * message; 400 `Payload is required` without a payload (the resource endpoints too: the reference's NPE 500
 * is not reproduced); 503 with Retry-After when the URL or pattern checks cannot be started. Registry
 * lookups are cached (CachedRegistryLookups) unless the deps bring their own.
 */
export function validationRoutes(registrationDeps: RegistrationDeps): Router {
  const router = new Router();
  const readBody = jsonBody();
  // A form asks about the same prefixes, codes and patterns again and again: answers are kept per
  // registry version (registerPrefix, which decides, queries afresh).
  const deps: RegistrationDeps = registrationDeps.lookups ? registrationDeps : { ...registrationDeps, lookups: new CachedRegistryLookups(registrationDeps.db) };

  for (const [kind, base, endpoints] of AREAS) {
    for (const target of endpoints) {
      router.post(`${base}/${target.name}`, readBody, (ctx) => answerValidation(ctx, kind, target, deps));
    }
  }
  return router;
}

async function answerValidation(ctx: Context, kind: RequestKind, target: ValidationEndpoint, deps: RegistrationDeps): Promise<void> {
  const verdict = await validateField(target, kind, ctx.request.body, { ...deps, client: ctx.ip });
  if (verdict.kind === 'payload-required') {
    ctx.status = 400;
    ctx.body = errorEnvelope(PAYLOAD_REQUIRED);
  } else if (verdict.kind === 'passed') {
    ctx.type = 'application/json';
    ctx.body = validationOkJson(kind);
  } else {
    ctx.status = 400;
    ctx.body = validationFailed(kind, verdict.message);
  }
}
