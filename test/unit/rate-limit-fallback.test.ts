import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { FALLBACK_LOG_INTERVAL_MS, RateLimitFallbacks } from '../../src/metrics/rate-limit-fallback.js';

describe('the registry rate limits counted in memory instead of Redis', () => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );

  it('counts every such request by family, from 0, and logs it at most once per interval with how many there were', async () => {
    let clock = 1_000_000;
    const registry = new Registry();
    const fallbacks = new RateLimitFallbacks(registry, ['browse', 'dataset'], logger, () => clock);
    const value = async (family: string) => (await registry.getSingleMetric('curie_rate_limit_fallback_total')!.get()).values.find((v) => v.labels.family === family)?.value;
    expect(await value('browse')).toBe(0);
    expect(await value('dataset')).toBe(0);

    const failure = new Error('the rate limit store took more than 250 ms');
    for (let i = 0; i < 5; i++) {
      fallbacks.record('browse', failure);
      clock += 1000;
    }
    fallbacks.record('dataset', failure);
    expect(await value('browse')).toBe(5);
    expect(await value('dataset')).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ family: 'browse', requests: 1, msg: expect.stringMatching(/counting in this process/) });

    clock = 1_000_000 + FALLBACK_LOG_INTERVAL_MS;
    fallbacks.record('browse', failure);
    expect(lines).toHaveLength(2);
    // Every request since the first line: four more of browse, one of dataset, and this one.
    expect(lines[1]).toMatchObject({ family: 'browse', requests: 6 });
    expect(await value('browse')).toBe(6);
  });
});
