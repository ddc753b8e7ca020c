import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { envelope } from '../../http/envelope.js';
import { badRequest, notFound } from '../../http/http-error.js';
import { jsonBody } from '../../http/json-body.js';
import type { EventName, RequestKind } from '../model/registration-records.js';
import { HalPresenter } from '../model/hal.presenter.js';
import { parsePageRequest, requireParam } from '../model/paging.js';
import { CURATION_NAMES, CurationPresenter, eventRel } from './curation.presenter.js';
import { checkSessionEventBody } from './curation.schemas.js';
import { CurationError, readSessionEventPayload, type CurationActions, type Operation } from '../model/curation-operations.js';
import { parseSessionId } from './curation.service.js';
import { curatorOf, requireCurator, type AccessTokenCheck } from '../model/curator-auth.js';
import type { WrongTokenThrottle } from '../model/wrong-token-throttle.js';

export interface CurationRouteDeps {
  curation: CurationActions;
  /** CURATOR_TOKEN; empty: every curation endpoint answers 404. */
  curatorToken: string;
  /** CURATOR_NAME: the actor the token's holder is recorded as. */
  curatorName: string;
  /** Wrong tokens counted and throttled, for every place the token is checked (wrong-token-throttle.ts). */
  tokenThrottle: WrongTokenThrottle;
  /** OpenID Connect access tokens (OIDC_API_AUDIENCE); absent: the curator token only. */
  accessTokens?: AccessTokenCheck;
  publicRegistryUrl: string;
}

const HAL_JSON = 'application/hal+json';
const OPERATIONS: readonly Operation[] = ['amend', 'comment', 'reject', 'accept'];
const AREAS: readonly { kind: RequestKind; base: string; suffix: string }[] = [
  { kind: 'prefix', base: '/prefixRegistrationApi', suffix: 'PrefixRegistrationRequest' },
  { kind: 'resource', base: '/resourceManagementApi', suffix: 'ResourceRegistrationRequest' },
];
const EVENT_NAMES: readonly EventName[] = ['START', 'AMEND', 'COMMENT', 'REJECT', 'ACCEPT'];
const SESSION_SORT = { created: 'created', closed: 'closed' } as const;
const ID = /^[0-9]{1,15}$/;
const ENTITY_NOT_FOUND = 'EntityRepresentationModel not found!';

/** A numeric path id, or 404 (as for an unknown one). */
function itemId(ctx: Context): number {
  const raw = ctx.params.id ?? '';
  if (!ID.test(raw)) throw notFound(ENTITY_NOT_FOUND);
  return Number(raw);
}

/**
 * The curators' endpoints, every one behind the curator token (curator-auth.ts): the session operations of
 * registry-behaviour.md §2.7 (POST, session-event envelope) and the HAL reads they work from: open sessions,
 * a session, its request versions and its events.
 */
export function curationRoutes(deps: CurationRouteDeps): Router {
  const router = new Router();
  const curator = requireCurator(deps.curatorToken, deps.curatorName, deps.tokenThrottle, deps.accessTokens);
  const readBody = jsonBody();
  const present = new CurationPresenter(new HalPresenter(deps.publicRegistryUrl));
  const selfHref = (ctx: Context) => `${deps.publicRegistryUrl}${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ''}`;
  const sendHal = (ctx: Context, body: unknown) => {
    ctx.type = HAL_JSON;
    ctx.body = body;
  };

  for (const { kind, base, suffix } of AREAS) {
    for (const operation of OPERATIONS) {
      router.post(`${base}/${operation}${suffix}/:sessionId`, curator, readBody, answerOperation(kind, operation));
    }

    const names = CURATION_NAMES[kind];
    // The searches of the sessions and of their events, as templated links (as for the registry's
    // collections), so a curation client can discover them from /search.
    const api = `${deps.publicRegistryUrl}/restApi`;
    router.get(`/restApi/${names.sessions}/search`, curator, (ctx) => {
      sendHal(ctx, {
        _links: {
          findByClosedFalse: { href: `${api}/${names.sessions}/search/findByClosedFalse{?page,size,sort}`, templated: true },
          self: { href: `${api}/${names.sessions}/search` },
        },
      });
    });
    router.get(`/restApi/${names.events}/search`, curator, (ctx) => {
      sendHal(ctx, {
        _links: {
          [names.eventsSearch]: { href: `${api}/${names.events}/search/${names.eventsSearch}{?id}`, templated: true },
          self: { href: `${api}/${names.events}/search` },
        },
      });
    });
    router.get(`/restApi/${names.sessions}/search/findByClosedFalse`, curator, async (ctx) => {
      const request = parsePageRequest(ctx.query, SESSION_SORT);
      const found = await deps.curation.listOpenSessions(kind, request);
      sendHal(ctx, present.openSessions(kind, { ...found, request }, selfHref(ctx)));
    });
    router.get(`/restApi/${names.sessions}/:id`, curator, async (ctx) => {
      const session = await deps.curation.findSession(kind, itemId(ctx));
      if (!session) throw notFound(ENTITY_NOT_FOUND);
      sendHal(ctx, present.session(kind, session));
    });
    router.get(`/restApi/${names.sessions}/:id/${names.requestRel}`, curator, async (ctx) => {
      const session = await deps.curation.findSession(kind, itemId(ctx));
      const request = session && (await deps.curation.findRequest(kind, session.requestId));
      if (!request) throw notFound(ENTITY_NOT_FOUND);
      sendHal(ctx, present.request(kind, request));
    });
    router.get(`/restApi/${names.requests}/:id`, curator, async (ctx) => {
      const request = await deps.curation.findRequest(kind, itemId(ctx));
      if (!request) throw notFound(ENTITY_NOT_FOUND);
      sendHal(ctx, present.request(kind, request));
    });
    router.get(`/restApi/${names.events}/search/${names.eventsSearch}`, curator, async (ctx) => {
      const given = requireParam(ctx.query, ['id']).value;
      if (!ID.test(given)) throw badRequest(`Parameter 'id' must be a session id (a whole number)`);
      sendHal(ctx, present.events(kind, await deps.curation.listSessionEvents(kind, Number(given)), selfHref(ctx)));
    });
    // One event, from the collection of all events or from its type's (`...SessionEventComments/12`).
    for (const eventName of [undefined, ...EVENT_NAMES]) {
      const collection = eventName === undefined ? names.events : `${eventRel(kind, eventName)}s`;
      router.get(`/restApi/${collection}/:id`, curator, async (ctx) => {
        const event = await deps.curation.findEvent(kind, itemId(ctx), eventName);
        if (!event) throw notFound(ENTITY_NOT_FOUND);
        sendHal(ctx, present.event(kind, event));
      });
    }
  }

  function answerOperation(kind: RequestKind, operation: Operation): Middleware {
    return async (ctx) => {
      const sessionId = parseSessionId(kind, operation, ctx.params.sessionId ?? '');
      const body = checkSessionEventBody(kind, operation === 'amend', ctx.request.body);
      if (!body.ok) throw new CurationError('invalid', body.message, true);
      await deps.curation.run(kind, operation, sessionId, readSessionEventPayload(body.payload, curatorOf(ctx)));
      ctx.body = envelope({ comment: null });
    };
  }

  return router;
}
