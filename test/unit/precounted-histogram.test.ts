/**
 * The metrics counted in plain arrays (the resolver's hot path) are written out as prom-client writes its own
 * metrics: the same observations give the same text.
 */
import { Histogram, Registry } from 'prom-client';
import { HttpMeter } from '../../src/metrics/http-meter.js';
import { PrecountedHistogram } from '../../src/metrics/precounted-histogram.js';
import { ScrapedMetrics } from '../support/prometheus-text.js';

const BUCKETS = [0.1, 1, 10];

describe('PrecountedHistogram', () => {
  it('writes the same text as a prom-client Histogram that observed the same values', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const observed: Record<string, number[]> = { a: [0.05, 0.5, 0.5, 5, 50], b: [2] };
    new PrecountedHistogram({ name: 'h_seconds', help: 'help text', labelNames: ['kind'], buckets: BUCKETS, registers: [ours] }, () =>
      Object.entries(observed).map(([kind, values]) => {
        const counts = [0, 0, 0, 0];
        for (const v of values) counts[BUCKETS.findIndex((b) => v <= b) === -1 ? 3 : BUCKETS.findIndex((b) => v <= b)]!++;
        return { labels: { kind }, counts, sum: values.reduce((x, y) => x + y, 0) };
      }),
    );
    const reference = new Histogram({ name: 'h_seconds', help: 'help text', labelNames: ['kind'], buckets: BUCKETS, registers: [theirs] });
    for (const [kind, values] of Object.entries(observed)) for (const v of values) reference.observe({ kind }, v);

    expect(await ours.metrics()).toBe(await theirs.metrics());
    // The JSON form too, but for what prom-client adds for exemplars (always empty here) and its collect hook.
    const values = async (registry: Registry) => (await registry.getMetricsAsJSON())[0]?.values.map(({ labels, value }) => ({ labels, value }));
    expect(await values(ours)).toEqual(await values(theirs));
  });
});

describe('HttpMeter', () => {
  it('counts requests by family and status, and their latency, as a Counter and Histogram would', async () => {
    const registry = new Registry();
    const meter = new HttpMeter(['resolution', 'health']);
    meter.register(registry);
    const resolution = meter.familyIndex('resolution');
    const now = performance.now();
    meter.record(resolution, 200, now);
    meter.record(resolution, 200, now);
    meter.record(resolution, 404, now);
    meter.record(meter.familyIndex('health'), 200, now - 3000);

    const scraped = ScrapedMetrics.parse(await registry.metrics());
    const requests = scraped.family('curie_http_requests_total');
    expect(requests?.type).toBe('COUNTER');
    expect(requests?.metrics).toEqual(
      expect.arrayContaining([
        { labels: { family: 'resolution', status: '200' }, value: '2' },
        { labels: { family: 'resolution', status: '404' }, value: '1' },
        { labels: { family: 'health', status: '200' }, value: '1' },
      ]),
    );
    const latency = scraped.family('curie_http_request_duration_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    const health = { family: 'health' };
    expect(scraped.count('curie_http_request_duration_seconds', health)).toBe(1);
    // Three seconds: above the 2.5 s bound, within the 5 s one.
    expect(scraped.bucket('curie_http_request_duration_seconds', '2.5', health)).toBe(0);
    expect(scraped.bucket('curie_http_request_duration_seconds', '5', health)).toBe(1);
    expect(scraped.value('curie_http_request_duration_seconds_sum', health)).toBeGreaterThanOrEqual(3);
    expect(scraped.count('curie_http_request_duration_seconds', { family: 'resolution' })).toBe(3);
    expect(scraped.bucket('curie_http_request_duration_seconds', '+Inf', { family: 'resolution' })).toBe(3);
  });

  it('refuses a family it was not made with', () => {
    expect(() => new HttpMeter(['resolution']).familyIndex('browse')).toThrow(/no route family browse/);
  });

  it('writes no series for a family never asked, and no counter line for a status never answered', async () => {
    const registry = new Registry();
    new HttpMeter(['resolution']).register(registry);
    const text = await registry.metrics();
    expect(text).not.toMatch(/^curie_http_requests_total\{/m);
    expect(text).not.toMatch(/^curie_http_request_duration_seconds_count/m);
  });
});
