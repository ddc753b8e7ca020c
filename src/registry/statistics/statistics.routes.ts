import { Router } from '@koa/router';
import { envelope } from '../../http/envelope.js';
import { notFound } from '../../http/http-error.js';
import { parseSeriesRequest, previousMonthDays } from './statistics-period.js';
import type { StatisticsService } from './statistics.service.js';

export interface StatisticsDeps {
  statistics: StatisticsService;
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
    const prefix = await deps.statistics.namespacePrefix(asked);
    if (prefix === undefined) throw notFound(`No namespace with prefix '${asked}'`);
    const series = ctx.query.period !== undefined ? parseSeriesRequest(ctx.query, now()) : null;
    if (!series) {
      ctx.body = envelope(await deps.statistics.usageOver(prefix, previousMonthDays(now())));
      return;
    }
    const points = [];
    for (const bucket of series.buckets) {
      const figures = await deps.statistics.usageOver(prefix, bucket.days);
      points.push({ [series.period === 'day' ? 'date' : 'month']: bucket.label, ...figures });
    }
    ctx.body = envelope(points);
  });
  return router;
}
