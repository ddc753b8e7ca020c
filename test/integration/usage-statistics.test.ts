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
    const first = await rollUpUsage(t.db, redis, { now: at(DAY2) });
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
