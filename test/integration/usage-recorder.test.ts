import { Redis } from 'ioredis';
import { Registry } from 'prom-client';
import { createLogger } from '../../src/lib/logger.js';
import { ResolverMetrics } from '../../src/metrics/resolver-metrics.js';
import { createProducerRedis } from '../../src/queue/connections.js';
import { usageKeys } from '../../src/statistics/usage-keys.js';
import { UsageRecorder } from '../../src/statistics/usage-recorder.js';
import { ScrapedMetrics } from '../support/prometheus-text.js';
import { TEST_REDIS_URL } from '../support/test-database.js';
import { waitFor } from '../support/wait.js';

// Days of a random month of the 1980s, so that runs sharing the machine's Redis never meet (the
// statistics test uses the 1990s).
const year = 1980 + Math.floor(Math.random() * 10);
const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, '0');
const DAY1 = `${year}-${month}-10`;
const DAY2 = `${year}-${month}-11`;
const at = (day: string) => new Date(`${day}T12:00:00Z`);

describe('usage recorder', () => {
  const logger = createLogger('silent', 'test');
  const redis = createProducerRedis(TEST_REDIS_URL);
  let clock = at(DAY1);
  let usage: UsageRecorder;

  async function clearDays() {
    for (const day of [DAY1, DAY2]) {
      await redis.del(usageKeys.visits(day), usageKeys.prefixes(day), usageKeys.visitors(day, 'taxonomy'), usageKeys.visitors(day, 'pdb'));
      await redis.srem(usageKeys.days, day);
    }
  }
  const day = async (d: string) => ({
    visits: await redis.hgetall(usageKeys.visits(d)),
    prefixes: (await redis.smembers(usageKeys.prefixes(d))).sort(),
    taxonomyVisitors: await redis.pfcount(usageKeys.visitors(d, 'taxonomy')),
  });

  beforeAll(async () => {
    if (redis.status !== 'ready') await new Promise((resolve) => redis.once('ready', resolve));
  });
  beforeEach(async () => {
    clock = at(DAY1);
    await clearDays();
    usage = new UsageRecorder(redis, 'test-key', logger, 60_000, () => clock);
  });
  afterEach(() => usage.stop());
  afterAll(async () => {
    await clearDays();
    redis.disconnect();
  });

  it('counts a visitor who keeps coming once per day over many flushes, and again on the next day', async () => {
    for (let i = 0; i < 3; i++) usage.record('taxonomy', '10.1.1.1', 'pipeline/1.0');
    usage.record('pdb', '10.1.1.1', 'pipeline/1.0');
    await usage.flush();
    for (let i = 0; i < 2; i++) usage.record('taxonomy', '10.1.1.1', 'pipeline/1.0');
    await usage.flush();
    expect(await day(DAY1)).toEqual({ visits: { taxonomy: '5', pdb: '1' }, prefixes: ['pdb', 'taxonomy'], taxonomyVisitors: 1 });
    expect(await redis.ttl(usageKeys.visitors(DAY1, 'taxonomy'))).toBeGreaterThan(0);

    clock = at(DAY2);
    usage.record('taxonomy', '10.1.1.1', 'pipeline/1.0');
    usage.record('taxonomy', '10.2.2.2', 'browser');
    await usage.flush();
    expect(await day(DAY2)).toEqual({ visits: { taxonomy: '2' }, prefixes: ['taxonomy'], taxonomyVisitors: 2 });
    expect(await redis.sismember(usageKeys.days, DAY2)).toBe(1);
  });

  it('tells apart visitors by address and by user agent, and counts the one seen before again when it comes back', async () => {
    usage.record('taxonomy', '10.1.1.1', 'a');
    await usage.flush();
    usage.record('taxonomy', '10.1.1.1', 'b');
    usage.record('taxonomy', '10.1.1.2', 'a');
    usage.record('taxonomy', '10.1.1.1', 'a');
    usage.record('taxonomy', '10.1.1.2', 'a');
    await usage.flush();
    expect(await day(DAY1)).toEqual({ visits: { taxonomy: '5' }, prefixes: ['taxonomy'], taxonomyVisitors: 3 });
  });

  it('writes everything again after the Redis connection is re-established, since Redis may have lost it', async () => {
    usage.record('taxonomy', '10.1.1.1', 'pipeline/1.0');
    await usage.flush();
    // Redis restarted empty: the day's keys are gone and the connection comes back.
    await clearDays();
    const ready = new Promise((resolve) => redis.once('ready', resolve));
    redis.disconnect(true);
    await ready;
    usage.record('taxonomy', '10.1.1.1', 'pipeline/1.0');
    await usage.flush();
    expect(await day(DAY1)).toEqual({ visits: { taxonomy: '1' }, prefixes: ['taxonomy'], taxonomyVisitors: 1 });
  });

  it('tells the metrics how long its counts have waited for Redis, and how many flushes Redis refused', async () => {
    const scrape = async (recorder: UsageRecorder) => {
      const metrics = new ResolverMetrics(new Registry());
      metrics.watch({ snapshot: { version: 1 }, staleReason: null }, recorder);
      return ScrapedMetrics.parse(await metrics.registry.metrics());
    };
    // The lag is the age of the oldest count not yet flushed, so time must pass for it to show: 300 ms,
    // awaited as the metric itself reaching it rather than slept.
    const lagOf = async (recorder: UsageRecorder) => (await scrape(recorder)).value('curie_usage_flush_lag_seconds');
    const lagged = (recorder: UsageRecorder) =>
      waitFor(async () => (await lagOf(recorder)) >= 0.3, { timeoutMs: 5000, everyMs: 20, what: 'the flush lag growing to 0.3 s' });
    usage.record('taxonomy', '10.1.1.1', 'pipeline/1.0');
    await lagged(usage);
    const waited = await lagOf(usage);
    await usage.flush();
    const flushed = await scrape(usage);
    // A flush that sent everything starts the lag again from zero.
    expect(flushed.value('curie_usage_flush_lag_seconds')).toBeLessThan(waited);
    expect(flushed.value('curie_usage_flush_failures_total')).toBe(0);

    // Never connected, and no offline queue: every command is refused at once, as while Redis is away.
    const away = new Redis(TEST_REDIS_URL, { lazyConnect: true, enableOfflineQueue: false });
    const stranded = new UsageRecorder(away, 'test-key', logger, 60_000, () => clock);
    try {
      stranded.record('taxonomy', '10.1.1.1', 'pipeline/1.0');
      await lagged(stranded);
      await stranded.flush();
      const refused = await scrape(stranded);
      expect(refused.value('curie_usage_flush_failures_total')).toBe(1);
      expect(refused.value('curie_usage_flush_lag_seconds')).toBeGreaterThanOrEqual(0.3);
    } finally {
      away.disconnect();
    }
  });
});
