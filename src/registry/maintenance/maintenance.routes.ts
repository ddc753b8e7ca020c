import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { DomainError } from '../../core/domain-error.js';
import { clientErrorAnswer } from '../../http/error-translator.js';
import { jsonBody, textBody } from '../../http/json-body.js';
import { methodNotAllowed } from '../../http/unserved-methods.js';
import { curatorOf, requireCurator, type AccessTokenCheck } from '../model/curator-auth.js';
import type { WrongTokenThrottle } from '../model/wrong-token-throttle.js';
import { HalPresenter } from '../model/hal.presenter.js';
import type { EditableCollection, RecordMaintenance } from '../model/record-maintenance.js';
import { readReactivation, readRecordPatch, readUriList } from './maintenance.schemas.js';
import { MaintenancePresenter } from './maintenance.presenter.js';

export interface MaintenanceRouteDeps {
  maintenance: RecordMaintenance;
  /** CURATOR_TOKEN; empty: every maintenance endpoint answers 404. */
  curatorToken: string;
  /** CURATOR_NAME: the curator the token's holder is logged as. */
  curatorName: string;
  /** Wrong tokens counted and throttled, for every place the token is checked (wrong-token-throttle.ts). */
  tokenThrottle: WrongTokenThrottle;
  /** OpenID Connect access tokens (OIDC_API_AUDIENCE); absent: the curator token only. */
  accessTokens?: AccessTokenCheck;
  publicRegistryUrl: string;
}

const HAL_JSON = 'application/hal+json';
const EDITABLE_COLLECTIONS: readonly EditableCollection[] = ['namespaces', 'resources', 'institutions'];

/**
 * The reference's lifecycle paths change state on GET; a HEAD (which @koa/router serves with the GET route)
 * must not.
 */
const refuseHead: Middleware = async (ctx, next) => {
  if (ctx.method === 'HEAD') throw methodNotAllowed('HEAD', ctx.path, ['GET', 'POST']);
  await next();
};

/**
 * Answers a refused lifecycle request as the reference does: the report in the error envelope with its
 * `comment` payload, or as plain text (`text`: institution deletion), with the status of the refusal's kind.
 */
function reportRefusals(present: MaintenancePresenter, text = false): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const answer = clientErrorAnswer(error, ctx.path)!;
      ctx.status = answer.status;
      ctx.set(answer.headers as Record<string, string>);
      if (text) {
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = answer.message;
      } else {
        ctx.body = present.refusal(answer.message);
      }
    }
  };
}

/**
 * Registry maintenance for curators, through the reference's paths (registry-behaviour.md §1.3 "Writes" and
 * §5.3 "Lifecycle management"), every one behind the curator token and never cached: PATCH of a namespace,
 * resource or institution (200 with the item when the request has an Accept header, else 204, as Spring
 * Data REST answers), PUT of a namespace's successor (text/uri-list, 204), deactivation and reactivation of
 * namespaces and resources, and deletion of an unused institution. The reference's lifecycle paths are
 * GETs; POST is taken as well (and DELETE for a deletion).
 */
export function maintenanceRoutes(deps: MaintenanceRouteDeps): Router {
  const router = new Router();
  const curator = requireCurator(deps.curatorToken, deps.curatorName, deps.tokenThrottle, deps.accessTokens);
  const present = new MaintenancePresenter(new HalPresenter(deps.publicRegistryUrl));
  const readJson = jsonBody();
  const id = (ctx: Context) => ctx.params.id ?? '';

  for (const collection of EDITABLE_COLLECTIONS) {
    router.patch(`/restApi/${collection}/:id`, curator, readJson, async (ctx) => {
      const patch = readRecordPatch(collection, ctx.request.body);
      const row = await deps.maintenance.edit(curatorOf(ctx), collection, id(ctx), patch, ctx.ip);
      // Spring Data REST's default: a body on update only for a request that says what it accepts.
      if (ctx.get('Accept').trim() === '') {
        ctx.status = 204;
        return;
      }
      ctx.type = HAL_JSON;
      ctx.body = present.editedItem(collection, row);
    });
  }
  router.put('/restApi/namespaces/:id/successor', curator, textBody('text/uri-list'), async (ctx) => {
    await deps.maintenance.setSuccessor(curatorOf(ctx), id(ctx), readUriList(ctx.request.body as string), ctx.ip);
    ctx.status = 204;
  });

  const envelopeReports = reportRefusals(present);
  const lifecycle = (path: string, methods: string[], run: (ctx: Context) => Promise<string>) => {
    router.register(path, methods, [curator, refuseHead, envelopeReports, async (ctx: Context) => void (ctx.body = present.report(await run(ctx)))]);
  };
  lifecycle('/namespaceManagementApi/deactivateNamespace/:id', ['GET', 'POST'], (ctx) => deps.maintenance.deactivateNamespace(curatorOf(ctx), id(ctx)));
  lifecycle('/namespaceManagementApi/reactivateNamespace/:id', ['GET', 'POST'], (ctx) => deps.maintenance.reactivateNamespace(curatorOf(ctx), id(ctx)));
  lifecycle('/resourceManagementApi/deactivateResource/:id', ['GET', 'POST'], (ctx) => deps.maintenance.deactivateResource(curatorOf(ctx), id(ctx)));
  router.post('/resourceManagementApi/reactivateResource/:id', curator, envelopeReports, readJson, async (ctx) => {
    const { providerUrlPattern } = readReactivation(ctx.request.body);
    ctx.body = present.report(await deps.maintenance.reactivateResource(curatorOf(ctx), id(ctx), providerUrlPattern, ctx.ip));
  });
  router.register('/institutionManagementApi/deleteById/:id', ['GET', 'POST', 'DELETE'], [
    curator,
    refuseHead,
    reportRefusals(present, true),
    async (ctx: Context) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = await deps.maintenance.deleteInstitution(curatorOf(ctx), id(ctx));
    },
  ]);
  return router;
}
