import { Counter, type Registry } from 'prom-client';
import { PrecountedHistogram, type PrecountedSeries } from './precounted-histogram.js';

/**
 * Upper bounds of the request-latency buckets in milliseconds (written out in seconds). Fine at the low end:
 * a resolution from the snapshot takes well under a millisecond, and a regression shows there first.
 */
const LATENCY_BOUNDS_MS = [0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];
const BUCKETS = LATENCY_BOUNDS_MS.length + 1;
/** One slot per status code 100..599; anything else (Node allows up to 999) lands in 599's. */
const STATUS_SLOTS = 500;

/**
 * Requests and their latency per route family and status, counted in typed arrays indexed by the family's
 * number: what a request costs is a few array increments and one performance.now() (no label object, no
 * hashing, no allocation). prom-client reads the arrays only when /metrics is scraped (`register`).
 */
export class HttpMeter {
  readonly families: readonly string[];
  private readonly requests: Float64Array;
  private readonly buckets: Float64Array;
  private readonly sums: Float64Array;
  private readonly byName = new Map<string, number>();

  constructor(families: readonly string[]) {
    this.families = families;
    families.forEach((family, index) => this.byName.set(family, index));
    this.requests = new Float64Array(families.length * STATUS_SLOTS);
    this.buckets = new Float64Array(families.length * BUCKETS);
    this.sums = new Float64Array(families.length);
  }

  /** The number `record` takes for a family; throws for one the meter was not made with (a programming error). */
  familyIndex(family: string): number {
    const index = this.byName.get(family);
    if (index === undefined) throw new Error(`no route family ${family} in this meter (${this.families.join(', ')})`);
    return index;
  }

  /** Counts an answered request of `family` (familyIndex) with `status`, started at `startedMs` (performance.now()). */
  record(family: number, status: number, startedMs: number): void {
    const ms = performance.now() - startedMs;
    const slot = status >= 100 && status < 600 ? status - 100 : STATUS_SLOTS - 1;
    this.requests[family * STATUS_SLOTS + slot]!++;
    let bucket = 0;
    while (bucket < LATENCY_BOUNDS_MS.length && ms > LATENCY_BOUNDS_MS[bucket]!) bucket++;
    this.buckets[family * BUCKETS + bucket]!++;
    this.sums[family]! += ms;
  }

  /** curie_http_requests_total and curie_http_request_duration_seconds in `registry`, read from the arrays at each scrape. */
  register(registry: Registry): void {
    const requests: Counter<'family' | 'status'> = new Counter({
      name: 'curie_http_requests_total',
      help: 'HTTP requests answered, by route family and status code.',
      labelNames: ['family', 'status'] as const,
      registers: [registry],
      collect: () => this.copyRequests(requests),
    });
    new PrecountedHistogram(
      {
        name: 'curie_http_request_duration_seconds',
        help: 'Time from a request reaching the application to its answer being written (headers), by route family.',
        labelNames: ['family'] as const,
        buckets: LATENCY_BOUNDS_MS.map((ms) => ms / 1000),
        registers: [registry],
      },
      () => this.latencies(),
    );
  }

  private copyRequests(counter: Counter<'family' | 'status'>): void {
    counter.reset();
    for (let f = 0; f < this.families.length; f++) {
      for (let s = 0; s < STATUS_SLOTS; s++) {
        const count = this.requests[f * STATUS_SLOTS + s]!;
        if (count > 0) counter.inc({ family: this.families[f]!, status: String(s + 100) }, count);
      }
    }
  }

  private *latencies(): Iterable<PrecountedSeries> {
    for (let f = 0; f < this.families.length; f++) {
      const counts = this.buckets.subarray(f * BUCKETS, (f + 1) * BUCKETS);
      // A family never asked has no series, as prom-client's own histograms have none before an observation.
      if (counts.every((n) => n === 0)) continue;
      yield { labels: { family: this.families[f]! }, counts, sum: this.sums[f]! / 1000 };
    }
  }
}
