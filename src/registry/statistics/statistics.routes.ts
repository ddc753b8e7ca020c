import { Router } from '@koa/router';
import type { Redis } from 'ioredis';
import { isDatabaseUnavailable } from '../../db/connection-errors.js';
import type { Db } from '../../db/knex.js';
import { envelope } from '../../http/envelope.js';
import { HttpError, notFound } from '../../http/http-error.js';
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
    try {
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
    } catch (error) {
      // Those of Postgres are the error translator's (503 naming the database).
      if ((error as { name?: string }).name === 'HttpError' || isDatabaseUnavailable(error)) throw error;
      // Unique visitors are counted by merging HyperLogLogs in Redis; without Redis there is no honest figure.
      throw new HttpError(503, `Usage statistics are unavailable right now (Redis: ${(error as Error).message})`, { 'Retry-After': '30' });
    }
  });
  return router;
}
