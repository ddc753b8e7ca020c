import { Router } from '@koa/router';
import { badRequest, notFound } from '../../../http/http-error.js';
import { jsonBody } from '../../../http/json-body.js';
import { foundInstitutionJson } from './ror.presenter.js';
import type { RorService } from './ror.service.js';

function readRorId(body: unknown): string {
  const payload = typeof body === 'object' && body !== null ? (body as { payload?: unknown }).payload : undefined;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw badRequest('Payload is required');
  const rorId = (payload as { rorId?: unknown }).rorId;
  if (rorId === undefined || rorId === null || (typeof rorId === 'string' && rorId.trim() === '')) throw badRequest('ROR ID is required');
  if (typeof rorId !== 'string') throw badRequest('ROR ID must be a string');
  return rorId;
}

/**
 * POST /rorIdApi/getInstitutionForRorId `{apiVersion, payload: {rorId}}`: the registry's institution with
 * that ROR id, as the reference's bare Institution JSON, so the registration form can fill the institution
 * fields. An id the registry does not know is looked up at the ROR API (ROR_API_URL), as the reference does,
 * and answered as the reference builds it (id 0, rorId null); 404 when neither knows it, 503 with
 * Retry-After when ROR cannot answer.
 */
export function rorRoutes(deps: { ror: RorService }): Router {
  const router = new Router({ prefix: '/rorIdApi' });

  router.post('/getInstitutionForRorId', jsonBody(), async (ctx) => {
    const rorId = readRorId(ctx.request.body);
    const found = await deps.ror.findInstitution(rorId);
    if (!found) throw notFound(`No institution with ROR ID '${rorId}' in the registry${deps.ror.asksRor ? ' or at ROR' : ''}`);
    ctx.body = foundInstitutionJson(found);
  });

  return router;
}
