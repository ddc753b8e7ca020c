import { Router } from '@koa/router';
import type { Context } from 'koa';
import { notFound } from '../../http/http-error.js';
import { jsonBody } from '../../http/json-body.js';
import { curatorOf, requireCurator, type AccessTokenCheck } from '../model/curator-auth.js';
import type { WrongTokenThrottle } from '../model/wrong-token-throttle.js';
import type { CurationWarning, CurationWarningEvent, WarningsSummary } from '../model/curation-warnings.js';
import { WarningsPresenter } from './warnings.presenter.js';
import { NOTIFICATIONS_BODY_LIMIT, readNotifications, type WarningNotification } from './warnings.schemas.js';
import type { CurationWarningOwner, SyncResult } from './warnings.service.js';
import type { Curator } from '../model/curator-auth.js';

/** What the warnings routes are given: the warnings service on the registry's database. */
export interface WarningsActions {
  listItemWarnings(owner: CurationWarningOwner, rawId: string): Promise<CurationWarning[]>;
  findWarning(rawId: string): Promise<CurationWarning | undefined>;
  listWarningEvents(rawId: string): Promise<CurationWarningEvent[] | undefined>;
  sync(curator: Curator, notifications: readonly WarningNotification[]): Promise<SyncResult>;
  summarize(): Promise<WarningsSummary>;
}

export interface WarningsRouteDeps {
  warnings: WarningsActions;
  curatorToken: string;
  curatorName: string;
  /** Wrong tokens counted and throttled, for every place the token is checked (wrong-token-throttle.ts). */
  tokenThrottle: WrongTokenThrottle;
  /** OpenID Connect access tokens (OIDC_API_AUDIENCE); absent: the curator token only. */
  accessTokens?: AccessTokenCheck;
  publicRegistryUrl: string;
}

const HAL_JSON = 'application/hal+json';
const OWNERS: readonly CurationWarningOwner[] = ['namespaces', 'resources', 'institutions'];
const WARNING_NOT_FOUND = 'EntityRepresentationModel not found!';

/**
 * The curation warnings: the `curationWarnings` association every namespace, resource and institution
 * advertises (open to all, as it has been here; mounted ahead of /restApi, whose answer cache follows
 * registry changes, which warnings are not), and, behind the curator token, a stored warning, its events,
 * the validator's notifications and the dashboard's summary (registry-behaviour.md §5.3).
 */
export function warningsRoutes(deps: WarningsRouteDeps): Router {
  const router = new Router();
  const curator = requireCurator(deps.curatorToken, deps.curatorName, deps.tokenThrottle, deps.accessTokens);
  const present = new WarningsPresenter(deps.publicRegistryUrl);
  const selfHref = (ctx: Context) => `${deps.publicRegistryUrl}${ctx.path}`;
  const sendHal = (ctx: Context, body: unknown) => {
    ctx.type = HAL_JSON;
    ctx.body = body;
  };

  for (const owner of OWNERS) {
    router.get(`/restApi/${owner}/:id/curationWarnings`, async (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      sendHal(ctx, present.warnings(await deps.warnings.listItemWarnings(owner, ctx.params.id ?? ''), selfHref(ctx)));
    });
  }
  router.get('/restApi/curationWarnings/:id', curator, async (ctx) => {
    const warning = await deps.warnings.findWarning(ctx.params.id ?? '');
    if (!warning) throw notFound(WARNING_NOT_FOUND);
    sendHal(ctx, present.warning(warning));
  });
  router.get('/restApi/curationWarnings/:id/events', curator, async (ctx) => {
    const events = await deps.warnings.listWarningEvents(ctx.params.id ?? '');
    if (!events) throw notFound(WARNING_NOT_FOUND);
    sendHal(ctx, present.events(events, selfHref(ctx)));
  });
  router.post('/curationApi/notifications', curator, jsonBody(NOTIFICATIONS_BODY_LIMIT), async (ctx) => {
    await deps.warnings.sync(curatorOf(ctx), readNotifications(ctx.request.body));
    // The reference answers 200 with an empty body.
    ctx.status = 200;
    ctx.body = '';
  });
  router.get('/curationApi/warningsSummary', curator, async (ctx) => {
    ctx.body = present.summary(await deps.warnings.summarize());
  });
  return router;
}
