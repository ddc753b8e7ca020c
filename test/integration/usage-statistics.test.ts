import type { Redis } from 'ioredis';
import request from 'supertest';
import { createLogger } from '../../src/lib/logger.js';
import { statisticsRoutes } from '../../src/registry/statistics/statistics.routes.js';
import { createStatisticsService } from '../../src/registry/statistics/statistics.service.js';
import { createBaseApp } from '../../src/http/base-app.js';
import { loadRegistry } from '../../src/resolver/snapshot-loader.js';
import { usageKeys } from '../../src/statistics/usage-keys.js';
import { UsageRecorder } from '../../src/statistics/usage-recorder.js';
import { rollUpUsage } from '../../src/statistics/usage-rollup.js';
import { startStack, type AreaStack } from '../support/areas.js';

// Counters are keyed by day; this file uses days of a random month of the 1990s so that runs sharing the
// Redis of the machine never meet.
const year = 1990 + Math.floor(Math.random() * 10);
const month = String(1 + Math.floor(Math.random() * 11)).padStart(2, '0');
const nextMonth = String(Number(month) + 1).padStart(2, '0');
const DAY1 = `${year}-${month}-03`;
const DAY2 = `${year}-${month}-17`;
const at = (day: string) => new Date(`${day}T12:00:00Z`);

describe('usage statistics', () => {
  let t: AreaStack;
  let redis: Redis;
  const logger = createLogger('silent', 'test');
  let clock = at(DAY1);
  const recorder = () => new UsageRecorder(redis, 'test-key', logger, 60000, () => clock);

  async function clearDays() {
    for (const day of [DAY1, DAY2]) {
      const prefixes = await redis.smembers(usageKeys.prefixes(day));
      await redis.del(usageKeys.visits(day), usageKeys.prefixes(day), ...prefixes.map((p) => usageKeys.visitors(day, p)));
      await redis.srem(usageKeys.days, day);
      await redis.srem(usageKeys.rolledUp, day);
    }
  }

  beforeAll(async () => {
    t = await startStack('usage_statistics');
    redis = t.redis;
    await clearDays();
  });
  afterAll(async () => {
    await clearDays();
    await t.close();
  });

  const statisticsApp = (now: Date) => {
    const app = createBaseApp({ logger, logSampleRate: 0, checks: [] });
    const routes = statisticsRoutes({ statistics: createStatisticsService(t.db, redis), now: () => now });
    app.use(routes.routes());
    return app.callback();
  };

  it('counts each resolution, JSON or redirect, per namespace and visitor, and skips requests with DNT: 1', async () => {
    const loaded = await loadRegistry(t.db);
    const usage = recorder();
    const app = (await t.resolverApp({ registry: { snapshot: loaded.snapshot, staleReason: null }, usage })).koa.callback();
    await request(app).get('/taxonomy:9606').set('User-Agent', 'alice');
    await request(app).get('/taxonomy:9606').set('User-Agent', 'alice');
    await request(app).get('/Taxonomy:10090').set('User-Agent', 'bob').set('Accept', 'text/html');
    await request(app).get('/taxonomy:9606').set('User-Agent', 'carol').set('DNT', '1');
    await request(app).get('/taxonomy:not-a-number').set('User-Agent', 'dave');
    await request(app).get('/pdb:2gc4').set('User-Agent', 'alice');
    // Nothing reaches Redis per request: the counts wait in the process for the next flush.
    expect(await redis.hget(usageKeys.visits(DAY1), 'taxonomy')).toBeNull();
    await usage.flush();
    expect(await redis.hget(usageKeys.visits(DAY1), 'taxonomy')).toBe('3');
    expect(await redis.hget(usageKeys.visits(DAY1), 'pdb')).toBe('1');
    expect(await redis.pfcount(usageKeys.visitors(DAY1, 'taxonomy'))).toBe(2);
  });

  it('rolls a finished day into Postgres, and running it twice gives the same rows', async () => {
    // A day rolled up last month (before the ones in Redis): the search's yearly totals count it once the
    // rollup has written the new days.
    const lastMonth = new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10);
    await t.db('usage_daily').insert({ day: lastMonth, prefix: 'chebi', visits: 42, uniqueVisitors: 4 });
    const totalOf = async (prefix: string) => (await t.db('namespace_usage_totals').where({ prefix }).first('visits'))?.visits;
    expect(await totalOf('chebi')).toBeUndefined();
    const first = await rollUpUsage(t.db, redis, { now: at(DAY2) });
    expect(Number(await totalOf('chebi'))).toBe(42);
    await t.db('usage_daily').where({ day: lastMonth, prefix: 'chebi' }).delete();
    expect(first.days.map((d) => d.day)).toContain(DAY1);
    const rows = async () =>
      (await t.db('usage_daily').whereIn('day', [DAY1, DAY2]).orderBy(['day', 'prefix']).select('day', 'prefix', 'visits', 'uniqueVisitors', 'visitorsHll')) as unknown[];
    const before = await rows();
    expect(before).toEqual(
      expect.arrayContaining([expect.objectContaining({ day: DAY1, prefix: 'taxonomy', visits: 3, uniqueVisitors: 2 })]),
    );
    const nightlyAgain = await rollUpUsage(t.db, redis, { now: at(DAY2) });
    expect(nightlyAgain.days.map((d) => d.day)).not.toContain(DAY1);
    await rollUpUsage(t.db, redis, { day: DAY1 });
    expect(await rows()).toEqual(before);
  });

  it('answers the previous calendar month with unique visitors counted over the month, not summed per day', async () => {
    // A second day, not rolled up yet: alice comes back (already counted), erin is new.
    clock = at(DAY2);
    const usage = recorder();
    const loaded = await loadRegistry(t.db);
    const app = (await t.resolverApp({ registry: { snapshot: loaded.snapshot, staleReason: null }, usage })).koa.callback();
    await request(app).get('/taxonomy:9606').set('User-Agent', 'alice');
    await request(app).get('/taxonomy:9606').set('User-Agent', 'erin');
    await usage.flush();
    const res = await request(statisticsApp(new Date(`${year}-${nextMonth}-05T00:00:00Z`))).get('/statistics/namespace/taxonomy');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: null, payload: { nb_uniq_visitors: 3, nb_visits: 5 } });
    expect(Object.keys(res.body.payload)).toEqual(['nb_uniq_visitors', 'nb_visits']);
  });

  it('gives a daily and a monthly series on request', async () => {
    const app = statisticsApp(new Date(`${year}-${nextMonth}-05T00:00:00Z`));
    const daily = await request(app).get(`/statistics/namespace/taxonomy?period=day&from=${DAY1}&to=${DAY2}`);
    expect(daily.status).toBe(200);
    expect(daily.body.payload).toHaveLength(15);
    expect(daily.body.payload[0]).toEqual({ date: DAY1, nb_uniq_visitors: 2, nb_visits: 3 });
    expect(daily.body.payload[14]).toEqual({ date: DAY2, nb_uniq_visitors: 2, nb_visits: 2 });
    const monthly = await request(app).get(`/statistics/namespace/taxonomy?period=month&from=${DAY1}&to=${DAY2}`);
    expect(monthly.body.payload).toEqual([{ month: `${year}-${month}`, nb_uniq_visitors: 3, nb_visits: 5 }]);
  });

  /** The queries the statistics app sends to the database while `run` goes on. */
  async function countQueries(run: () => Promise<unknown>): Promise<number> {
    let queries = 0;
    const count = () => (queries += 1);
    t.db.on('query', count);
    try {
      await run();
    } finally {
      t.db.off('query', count);
    }
    return queries;
  }

  it('gives a monthly series over two months, rolled-up and live days together, as the sum of its days', async () => {
    const app = statisticsApp(new Date(`${year}-${nextMonth}-05T00:00:00Z`));
    const monthly = await request(app).get(`/statistics/namespace/taxonomy?period=month&from=${year}-${month}-01&to=${year}-${nextMonth}-04`);
    expect(monthly.status).toBe(200);
    expect(monthly.body.payload).toEqual([
      { month: `${year}-${month}`, nb_uniq_visitors: 3, nb_visits: 5 },
      { month: `${year}-${nextMonth}`, nb_uniq_visitors: 0, nb_visits: 0 },
    ]);
  });

  it('reads a whole year of daily figures in a fixed number of database queries, not one per day', async () => {
    const app = statisticsApp(new Date(`${year}-${nextMonth}-05T00:00:00Z`));
    let daily: request.Response | undefined;
    const queries = await countQueries(async () => {
      daily = await request(app).get(`/statistics/namespace/taxonomy?period=day&from=${year}-01-01&to=${year}-12-31`);
    });
    expect(daily!.status).toBe(200);
    expect(daily!.body.payload).toHaveLength(year % 4 === 0 ? 366 : 365);
    expect(daily!.body.payload).toContainEqual({ date: DAY1, nb_uniq_visitors: 2, nb_visits: 3 });
    expect(daily!.body.payload).toContainEqual({ date: DAY2, nb_uniq_visitors: 2, nb_visits: 2 });
    // The namespace's stored prefix and the usage rows.
    expect(queries).toBe(2);
  });

  it('answers 400 for a daily or monthly series between years 1 and 9999 before reading anything', async () => {
    const app = statisticsApp(new Date());
    for (const prefix of ['taxonomy', 'nosuchprefix']) {
      let daily: request.Response | undefined;
      let monthly: request.Response | undefined;
      const queries = await countQueries(async () => {
        daily = await request(app).get(`/statistics/namespace/${prefix}?period=day&from=0001-01-01&to=9999-12-31`);
        monthly = await request(app).get(`/statistics/namespace/${prefix}?period=month&from=0001-01-01&to=9999-12-31`);
      });
      expect(daily!.status).toBe(400);
      expect(daily!.body).toEqual({ apiVersion: '1.0', errorMessage: 'A daily series covers at most 366 days', payload: null });
      expect(monthly!.status).toBe(400);
      expect(monthly!.body).toEqual({ apiVersion: '1.0', errorMessage: 'A monthly series covers at most 60 months', payload: null });
      expect(queries).toBe(0);
    }
  });

  it('accepts a daily series of exactly 366 days and a monthly one of exactly 60 months', async () => {
    const app = statisticsApp(new Date(`${year}-${nextMonth}-05T00:00:00Z`));
    const daily = await request(app).get('/statistics/namespace/taxonomy?period=day&from=2000-01-01&to=2000-12-31');
    expect(daily.status).toBe(200);
    expect(daily.body.payload).toHaveLength(366);
    expect((await request(app).get('/statistics/namespace/taxonomy?period=day&from=2000-01-01&to=2001-01-01')).status).toBe(400);
    const monthly = await request(app).get('/statistics/namespace/taxonomy?period=month&from=2000-01-31&to=2004-12-01');
    expect(monthly.status).toBe(200);
    expect(monthly.body.payload).toHaveLength(60);
    expect((await request(app).get('/statistics/namespace/taxonomy?period=month&from=2000-01-31&to=2005-01-01')).status).toBe(400);
  });

  it('answers an unknown prefix with 404 and a bad period with 400, in the envelope', async () => {
    const app = statisticsApp(new Date());
    const unknown = await request(app).get('/statistics/namespace/nosuchprefix');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ apiVersion: '1.0', errorMessage: "No namespace with prefix 'nosuchprefix'", payload: null });
    const bad = await request(app).get('/statistics/namespace/taxonomy?period=day&from=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.body.errorMessage).toBe("'from' must be a date written YYYY-MM-DD");
    const tooLong = await request(app).get('/statistics/namespace/taxonomy?period=day&from=2000-01-01&to=2003-01-01');
    expect(tooLong.status).toBe(400);
    expect((await request(app).get('/statistics/namespace/taxonomy?period=week')).status).toBe(400);
  });
});
