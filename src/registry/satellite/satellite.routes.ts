import { Router } from '@koa/router';
import type { Context, Next } from 'koa';
import { DomainError, notFound } from '../../core/domain-error.js';
import { assertBodyUnread } from '../../http/auth-before-body.js';
import { bearerTokenOf, carriesBearerToken } from '../../http/bearer-token.js';
import { envelope } from '../../http/envelope.js';
import { jsonBody } from '../../http/json-body.js';
import { utcDateOf } from '../../lib/calendar-date.js';
import { namespaceIdsOf, SATELLITE_LIMITS, usageBatchOf } from './satellite.schemas.js';
import type { SatelliteService } from './satellite.service.js';

export interface SatelliteRouteDeps {
  service: SatelliteService;
  /** SATELLITE_TOKEN; empty: the satellite API is off (404). */
  token: string;
}

export const SATELLITE_CHALLENGE = 'Bearer realm="satellite"';

/**
 * The satellite API of the registry area (README, Satellite resolvers): what a satellite resolver needs
 * beyond the dataset file and the change feed. Every route checks the shared SATELLITE_TOKEN before it reads
 * anything, the body included.
 */
export function satelliteRoutes(deps: SatelliteRouteDeps): Router {
  const router = new Router({ prefix: '/satelliteApi' });
  const guard = async (ctx: Context, next: Next) => {
    if (deps.token === '') throw notFound('The satellite API is not enabled on this registry (SATELLITE_TOKEN is empty)');
    assertBodyUnread(ctx, 'the satellite token check');
    const authorization = ctx.get('Authorization') || undefined;
    if (!carriesBearerToken(authorization, deps.token)) {
      const message = bearerTokenOf(authorization) === undefined
        ? 'The satellite API needs a bearer token: send Authorization: Bearer <SATELLITE_TOKEN>'
        : 'The bearer token is not the satellite token';
      throw new DomainError('unauthenticated', message, { challenge: SATELLITE_CHALLENGE });
    }
    ctx.set('Cache-Control', 'no-store');
    await next();
  };

  router.get('/namespaces', guard, async (ctx) => {
    const ids = namespaceIdsOf(ctx.query.ids);
    ctx.body = envelope(await deps.service.namespaces(ids));
  });
  router.get('/overrides', guard, async (ctx) => {
    ctx.body = envelope({ namespaces: await deps.service.overrides() });
  });
  router.get('/measurements', guard, async (ctx) => {
    ctx.body = envelope({ measurements: await deps.service.measurements() });
  });
  router.post('/usage', guard, jsonBody(SATELLITE_LIMITS.usageBodyBytes), async (ctx) => {
    const batch = usageBatchOf(ctx.request.body, utcDateOf(new Date()));
    const { counted, ignored } = await deps.service.recordUsage(batch.batchId, batch.entries);
    ctx.body = envelope({ batchId: batch.batchId, counted, duplicate: !counted, entries: batch.entries.length, ignored });
  });
  return router;
}
