import { Router } from '@koa/router';
import { envelope } from '../../http/envelope.js';
import { notFound } from '../../http/http-error.js';
import { parseSeriesRequest, previousMonthDays } from './statistics-period.js';
import type { StatisticsService } from '../model/usage-statistics.js';

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
    // The query is checked before the namespace is looked up: a refused range costs no database round trip.
    const series = ctx.query.period !== undefined ? parseSeriesRequest(ctx.query, now()) : null;
    const asked = ctx.params.prefix ?? '';
    const prefix = await deps.statistics.namespacePrefix(asked);
    if (prefix === undefined) throw notFound(`No namespace with prefix '${asked}'`);
    if (!series) {
      ctx.body = envelope(await deps.statistics.usageOver(prefix, previousMonthDays(now())));
      return;
    }
    const figures = await deps.statistics.usageSeries(
      prefix,
      series.buckets.map((bucket) => bucket.days),
    );
    const points = series.buckets.map((bucket, i) => ({ [series.period === 'day' ? 'date' : 'month']: bucket.label, ...figures[i]! }));
    ctx.body = envelope(points);
  });
  return router;
}
