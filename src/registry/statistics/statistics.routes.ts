import { Router } from '@koa/router';
import type { Redis } from 'ioredis';
import type { Db } from '../../db/knex.js';
import { envelope } from '../../http/envelope.js';
import { notFound } from '../../http/http-error.js';
import { parseSeriesRequest, previousMonthDays } from './statistics-period.js';
import { usageOver } from './usage-query.js';

export interface StatisticsDeps {
  db: Db;
  redis: Redis;
  now?: () => Date;
}

/**
 * GET /statistics/namespace/{prefix}: the reference's figures for the previous calendar month, and with
 * `?period=day|month&from&to` a time series (not in the reference).
 */
export function statisticsRoutes(deps: StatisticsDeps): Router {
  const now = deps.now ?? (() => new Date());
  const router = new Router();
  router.get('/statistics/namespace/:prefix', async (ctx) => {
    const asked = ctx.params.prefix ?? '';
    const row = (await deps.db('namespaces').whereRaw('lower(prefix) = lower(?)', [asked]).first('prefix')) as { prefix: string } | undefined;
    if (!row) throw notFound(`No namespace with prefix '${asked}'`);
    const series = ctx.query.period !== undefined ? parseSeriesRequest(ctx.query, now()) : null;
    if (!series) {
      ctx.body = envelope(await usageOver(deps.db, deps.redis, row.prefix, previousMonthDays(now())));
      return;
    }
    const points = [];
    for (const bucket of series.buckets) {
      const figures = await usageOver(deps.db, deps.redis, row.prefix, bucket.days);
      points.push({ [series.period === 'day' ? 'date' : 'month']: bucket.label, ...figures });
    }
    ctx.body = envelope(points);
  });
  return router;
}
