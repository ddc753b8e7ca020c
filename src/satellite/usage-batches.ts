import { createHmac, randomUUID } from 'node:crypto';
import type { Logger } from '../lib/logger.js';
import type { UsageCounter } from '../resolver/app.js';
import { utcDay } from '../statistics/usage-keys.js';
import type { SatelliteUsageEntry } from '../statistics/satellite-usage.js';
import { UpstreamError, type UpstreamClient } from './upstream-client.js';

/** The upstream's bounds of one batch (registry/satellite/satellite.schemas.ts), which each batch keeps to. */
const ENTRIES_PER_BATCH = 2000;
const VISITORS_PER_ENTRY = 1000;
const VISITORS_PER_BATCH = 10_000;
/** Distinct visitors kept between two sends, as the resolver's recorder bounds them; more are not counted as visitors. */
const MAX_VISITORS = 200_000;
/** Batches kept while the upstream is unreachable (the oldest are dropped beyond): about this many intervals of counts. */
const MAX_PENDING_BATCHES = 3600;

interface Batch {
  batchId: string;
  entries: SatelliteUsageEntry[];
}

/** One namespace's counts of one day since the last send: visits, and the visitors' identities (hashed when sent). */
interface Tally {
  visits: number;
  visitors: Set<string>;
}

/**
 * The satellite's usage counting (issue 25): resolutions are counted per UTC day and namespace in memory, as
 * the resolver's recorder counts them, and every USAGE_FLUSH_INTERVAL_MS sealed into batches that go to the
 * upstream registry area's POST /satelliteApi/usage, which adds them to the same Redis counters the
 * resolvers flush to (so the nightly rollup and /statistics see them). Each batch has an id of its own, sent
 * again unchanged after a failure: the upstream counts an id once, so a retry after a lost answer does not
 * count twice. While the upstream is unreachable batches wait in memory (bounded); a restart loses them.
 *
 * Visitors are hashed here, with a key derived from SATELLITE_TOKEN: no client address leaves the satellite,
 * and every satellite of a deployment hashes a visitor alike. The resolvers hash with a key of the
 * database's own, so one visitor seen by a resolver and by a satellite counts as two unique visitors.
 */
export class SatelliteUsage implements UsageCounter {
  private tallies = new Map<string, Map<string, Tally>>();
  private visitorCount = 0;
  private pending: Batch[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<void> | null = null;
  private flushed = Date.now();
  private failures = 0;
  private dropped = 0;
  private readonly hashKey: Buffer;

  constructor(
    private readonly upstream: UpstreamClient,
    token: string,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.hashKey = createHmac('sha256', token).update('curie-resolver satellite visitor hash key').digest();
  }

  get flushedAt(): number {
    return this.flushed;
  }

  /** Sends the upstream refused or could not be reached for (their batches wait for the next). */
  get failedFlushes(): number {
    return this.failures;
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  record(prefix: string, address: string, userAgent: string): void {
    const day = utcDay(this.now());
    let byPrefix = this.tallies.get(day);
    if (!byPrefix) this.tallies.set(day, (byPrefix = new Map()));
    let tally = byPrefix.get(prefix);
    if (!tally) byPrefix.set(prefix, (tally = { visits: 0, visitors: new Set() }));
    tally.visits++;
    const identity = `${address}\n${userAgent}`;
    if (this.visitorCount < MAX_VISITORS && !tally.visitors.has(identity)) {
      tally.visitors.add(identity);
      this.visitorCount++;
    }
  }

  /** Seals what was counted into batches and sends every waiting batch, oldest first. */
  flush(): Promise<void> {
    this.sending ??= this.sendPending().finally(() => (this.sending = null));
    return this.sending;
  }

  private seal(): void {
    const tallies = this.tallies;
    this.tallies = new Map();
    this.visitorCount = 0;
    let batch: Batch | null = null;
    let batchVisitors = 0;
    const add = (entry: SatelliteUsageEntry) => {
      if (!batch || batch.entries.length === ENTRIES_PER_BATCH || batchVisitors + entry.visitors.length > VISITORS_PER_BATCH) {
        batch = { batchId: randomUUID(), entries: [] };
        batchVisitors = 0;
        this.pending.push(batch);
      }
      batch.entries.push(entry);
      batchVisitors += entry.visitors.length;
    };
    for (const [day, byPrefix] of tallies) {
      for (const [prefix, tally] of byPrefix) {
        const hashes = [...tally.visitors].map((identity) => createHmac('sha256', this.hashKey).update(identity).digest('base64url').slice(0, 22));
        // A namespace with more visitors than an entry holds goes as several entries, its visits on the first.
        add({ day, prefix, visits: tally.visits, visitors: hashes.slice(0, VISITORS_PER_ENTRY) });
        for (let i = VISITORS_PER_ENTRY; i < hashes.length; i += VISITORS_PER_ENTRY) add({ day, prefix, visits: 0, visitors: hashes.slice(i, i + VISITORS_PER_ENTRY) });
      }
    }
    if (this.pending.length > MAX_PENDING_BATCHES) {
      const excess = this.pending.length - MAX_PENDING_BATCHES;
      this.pending.splice(0, excess);
      this.dropped += excess;
      this.logger.warn({ dropped: this.dropped }, 'usage batches dropped: the upstream registry has been unreachable too long');
    }
  }

  private async sendPending(): Promise<void> {
    const started = Date.now();
    this.seal();
    while (this.pending.length > 0) {
      const batch = this.pending[0]!;
      try {
        await this.upstream.sendUsage(batch);
      } catch (error) {
        this.failures++;
        if (error instanceof UpstreamError && (error.status === 400 || error.status === 413 || error.status === 415)) {
          // Refused for what it is, it would be refused forever: dropped, so the batches after it still go.
          this.logger.error({ err: error }, 'usage batch refused by the upstream registry; dropped');
          this.pending.shift();
          continue;
        }
        this.logger.warn({ err: error, waiting: this.pending.length }, 'usage batch not sent; sent again at the next flush');
        return;
      }
      this.pending.shift();
    }
    this.flushed = started;
  }
}
