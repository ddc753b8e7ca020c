import { Histogram, type Registry } from 'prom-client';
import { HttpMeter } from './http-meter.js';
import { counterReadAtScrape, gaugeReadAtScrape } from './read-at-scrape.js';
import { RESOLVER_FAMILIES } from './route-families.js';

/** What the snapshot gauges read at scrape time (SnapshotStore, or a fixed snapshot in tests). */
export interface SnapshotReading {
  readonly snapshot: { readonly version: number };
  readonly staleReason: string | null;
  /** Date.now() when the snapshot was put in place; absent: no age is given. */
  readonly appliedAt?: number;
}

/** What the usage-flush gauges read at scrape time (UsageRecorder). */
export interface UsageFlushReading {
  readonly flushedAt: number;
  readonly failedFlushes: number;
}

const CHANGE_LAG_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * The resolver's metrics, in its process's registry: requests (the HttpMeter that the front handler and the
 * Koa application count into), the snapshot's version and age, the change-notification lag, and the usage
 * counts' flush lag. The gauges are read at scrape time from what they describe; the lag histogram is
 * observed once per snapshot refresh, never per request.
 */
export class ResolverMetrics {
  readonly meter = new HttpMeter(RESOLVER_FAMILIES);
  private readonly changeLag: Histogram;
  private watching = false;

  constructor(readonly registry: Registry) {
    this.meter.register(registry);
    this.changeLag = new Histogram({
      name: 'curie_resolver_change_lag_seconds',
      help: 'Time from a registry change notification (LISTEN registry_changes) to the snapshot holding the change.',
      buckets: CHANGE_LAG_BUCKETS,
      registers: [registry],
    });
  }

  /** For SnapshotStore's onChangeApplied. */
  readonly changeApplied = (lagSeconds: number): void => this.changeLag.observe(lagSeconds);

  /** Adds the gauges of the snapshot holder, and of the usage recorder when usage is counted; once. */
  watch(snapshot: SnapshotReading, usage?: UsageFlushReading): void {
    if (this.watching) throw new Error('ResolverMetrics.watch is called once, by the resolver app');
    this.watching = true;
    const { registry } = this;
    gaugeReadAtScrape(
      registry,
      'curie_resolver_snapshot_version',
      'Registry version (position in the registry_changes log) of the snapshot the resolver answers from.',
      () => snapshot.snapshot.version,
    );
    const appliedAt = snapshot.appliedAt;
    if (appliedAt !== undefined) {
      gaugeReadAtScrape(
        registry,
        'curie_resolver_snapshot_age_seconds',
        'Seconds since the snapshot the resolver answers from was put in place (loaded, or brought up to date by a change).',
        () => (Date.now() - (snapshot.appliedAt ?? appliedAt)) / 1000,
      );
    }
    gaugeReadAtScrape(
      registry,
      'curie_resolver_snapshot_stale',
      '1 while the last refresh of the snapshot failed (Postgres unreachable) and the resolver serves the one it has; 0 otherwise.',
      () => (snapshot.staleReason === null ? 0 : 1),
    );
    if (!usage) return;
    gaugeReadAtScrape(
      registry,
      'curie_usage_flush_lag_seconds',
      'Seconds since every usage count of this resolver was last in Redis: the oldest count not yet flushed is at most this old.',
      () => (Date.now() - usage.flushedAt) / 1000,
    );
    counterReadAtScrape(registry, 'curie_usage_flush_failures_total', 'Usage-count flushes Redis refused (their counts are dropped).', () => usage.failedFlushes);
  }
}
