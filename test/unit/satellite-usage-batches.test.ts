// The satellite's usage batches (src/satellite/usage-batches.ts): within the upstream's bounds however much
// was counted, and sent again unchanged (the same batch id) after a failure, so the upstream counts it once.
import { createLogger } from '../../src/lib/logger.js';
import { UpstreamError, type UpstreamClient } from '../../src/satellite/upstream-client.js';
import { SatelliteUsage } from '../../src/satellite/usage-batches.js';
import type { SatelliteUsageEntry } from '../../src/statistics/satellite-usage.js';

type Sent = { batchId: string; entries: SatelliteUsageEntry[] };

/** An upstream that records what it is sent, and refuses while `down`. */
function recordingUpstream() {
  const sent: Sent[] = [];
  const attempted: string[] = [];
  const state = { down: false as false | Error };
  const upstream = {
    sendUsage: (batch: unknown) => {
      attempted.push((batch as Sent).batchId);
      if (state.down) return Promise.reject(state.down);
      sent.push(structuredClone(batch as Sent));
      return Promise.resolve();
    },
  } as unknown as UpstreamClient;
  return { upstream, sent, attempted, state };
}

const TOKEN = 'satellite-token-of-the-unit-test-0123456789';
const DAY = new Date('2026-03-04T10:00:00Z');

describe('satellite usage batches', () => {
  it('counts visits and distinct visitors per day and namespace, hashing visitors', async () => {
    const { upstream, sent } = recordingUpstream();
    const usage = new SatelliteUsage(upstream, TOKEN, createLogger('silent', 'test'), 1000, () => DAY);
    usage.record('go', '10.0.0.1', 'agent a');
    usage.record('go', '10.0.0.1', 'agent a');
    usage.record('go', '10.0.0.2', 'agent a');
    usage.record('taxonomy', '10.0.0.1', 'agent a');
    await usage.flush();
    expect(sent).toHaveLength(1);
    const entries = sent[0]!.entries;
    expect(entries.map(({ day, prefix, visits, visitors }) => ({ day, prefix, visits, visitors: visitors.length }))).toEqual([
      { day: '2026-03-04', prefix: 'go', visits: 3, visitors: 2 },
      { day: '2026-03-04', prefix: 'taxonomy', visits: 1, visitors: 1 },
    ]);
    for (const hash of entries.flatMap((e) => e.visitors)) expect(hash).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // The same visitor hashes alike in both namespaces, and no address is sent.
    expect(entries[1]!.visitors[0]).toBe(entries[0]!.visitors[0]);
    expect(JSON.stringify(sent)).not.toContain('10.0.0.1');
  });

  it('keeps every batch within 2,000 entries and 10,000 visitors, an entry within 1,000', async () => {
    const { upstream, sent } = recordingUpstream();
    const usage = new SatelliteUsage(upstream, TOKEN, createLogger('silent', 'test'), 1000, () => DAY);
    for (let n = 0; n < 2500; n++) usage.record(`ns${n}`, '10.0.0.1', 'a');
    for (let v = 0; v < 2500; v++) usage.record('go', `10.1.${v >> 8}.${v & 255}`, 'a');
    await usage.flush();
    for (const batch of sent) {
      expect(batch.entries.length).toBeLessThanOrEqual(2000);
      expect(batch.entries.reduce((n, e) => n + e.visitors.length, 0)).toBeLessThanOrEqual(10_000);
      for (const entry of batch.entries) expect(entry.visitors.length).toBeLessThanOrEqual(1000);
    }
    const all = sent.flatMap((b) => b.entries);
    expect(all.filter((e) => e.prefix === 'go').reduce((n, e) => n + e.visits, 0)).toBe(2500);
    expect(all.filter((e) => e.prefix === 'go').reduce((n, e) => n + e.visitors.length, 0)).toBe(2500);
    expect(new Set(all.map((e) => e.prefix)).size).toBe(2501);
    expect(new Set(sent.map((b) => b.batchId)).size).toBe(sent.length);
  });

  it('sends a batch the upstream did not take again with the same id, and what came meanwhile after it', async () => {
    const { upstream, sent, attempted, state } = recordingUpstream();
    const usage = new SatelliteUsage(upstream, TOKEN, createLogger('silent', 'test'), 1000, () => DAY);
    usage.record('go', '10.0.0.1', 'a');
    state.down = new UpstreamError('cannot reach http://127.0.0.1:1: ECONNREFUSED');
    await usage.flush();
    expect(usage.failedFlushes).toBe(1);
    usage.record('go', '10.0.0.1', 'a');
    state.down = false;
    await usage.flush();
    expect(sent).toHaveLength(2);
    expect(sent.map((b) => b.entries[0]!.visits)).toEqual([1, 1]);
    expect(sent[0]!.batchId).toBe(attempted[0]);
    expect(sent[1]!.batchId).not.toBe(sent[0]!.batchId);
  });

  it('drops a batch the upstream refuses as malformed, so the batches after it still go', async () => {
    const { upstream, sent, state } = recordingUpstream();
    const usage = new SatelliteUsage(upstream, TOKEN, createLogger('silent', 'test'), 1000, () => DAY);
    usage.record('go', '10.0.0.1', 'a');
    state.down = new UpstreamError('the usage batch: the upstream answered 400', 400);
    await usage.flush();
    state.down = false;
    usage.record('taxonomy', '10.0.0.1', 'a');
    await usage.flush();
    expect(sent.map((b) => b.entries.map((e) => e.prefix))).toEqual([['taxonomy']]);
  });
});
