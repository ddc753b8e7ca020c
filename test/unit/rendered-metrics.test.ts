/**
 * Issue 21 item 4: /metrics answers from a copy rendered at most once a second, shared by every scrape of that
 * second and by those that come while it is rendered; the next scrape after it renders anew.
 */
import { Counter, Registry } from 'prom-client';
import { RenderedMetrics } from '../../src/metrics/rendered-metrics.js';
import { ScrapedMetrics } from '../support/prometheus-text.js';

function setUp() {
  const registry = new Registry();
  const requests = new Counter({ name: 'test_requests_total', help: 'Requests.', registers: [registry] });
  let now = 0;
  const rendered = new RenderedMetrics(registry, { maxAgeMs: 1000, now: () => now });
  const read = async () => ScrapedMetrics.parse(await rendered.text());
  return { requests, read, rendered, advance: (ms: number) => (now += ms) };
}

describe('RenderedMetrics', () => {
  it('answers every scrape within a second from one render, and renders anew after it with what moved meanwhile', async () => {
    const { requests, read, advance } = setUp();
    const first = await read();
    expect(first.value('curie_metrics_renders_total')).toBe(1);
    requests.inc(5);
    advance(999);
    const sameSecond = await Promise.all(Array.from({ length: 50 }, read));
    for (const scrape of sameSecond) {
      expect(scrape.value('curie_metrics_renders_total')).toBe(1);
      expect(scrape.value('test_requests_total')).toBe(0);
    }
    advance(1);
    const next = await read();
    expect(next.value('curie_metrics_renders_total')).toBe(2);
    expect(next.value('test_requests_total')).toBe(5);
  });

  it('shares a render under way with the scrapes that come meanwhile, however long it takes', async () => {
    const { rendered, advance } = setUp();
    const texts = [rendered.text()];
    advance(5000);
    texts.push(rendered.text(), rendered.text());
    const [a, b, c] = await Promise.all(texts);
    expect(b).toBe(a);
    expect(c).toBe(a);
    advance(1000);
    expect(await rendered.text()).not.toBe(a);
  });
});
