import { Histogram, type HistogramConfiguration } from 'prom-client';

/** One series of a PrecountedHistogram, as its owner counted it. */
export interface PrecountedSeries {
  labels: Record<string, string>;
  /** Observations per bucket (not cumulative), one per upper bound and a last one for +Inf. */
  counts: ArrayLike<number>;
  /** Sum of the observations, in the histogram's unit. */
  sum: number;
}

type Exported = Awaited<ReturnType<Histogram['get']>>;

/**
 * A histogram whose observations are counted by its owner, in plain arrays, and read only when the registry
 * is scraped: the resolver's hot path adds to a bucket of a Float64Array instead of calling observe() with a
 * label object per request (prom-client hashes the labels on every observe). Written out exactly as
 * prom-client writes its own histograms (test/unit/precounted-histogram.test.ts compares the two), so that
 * the text format stays prom-client's; observe() is not meant to be called on it.
 */
export class PrecountedHistogram<T extends string> extends Histogram<T> {
  private readonly read: () => Iterable<PrecountedSeries>;
  private readonly bounds: readonly number[];
  private readonly config: HistogramConfiguration<T>;

  constructor(config: HistogramConfiguration<T> & { buckets: number[] }, read: () => Iterable<PrecountedSeries>) {
    super(config);
    this.read = read;
    this.bounds = [...config.buckets];
    this.config = config;
  }

  /** What the registry writes out (prom-client's Registry prefers it to get() when a metric has it). */
  async getForPromString(): Promise<Exported> {
    const values: Exported['values'] = [];
    const { name, help, aggregator = 'sum' } = this.config;
    const bucket = `${name}_bucket`;
    for (const series of this.read()) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += series.counts[i] ?? 0;
        values.push({ labels: { le: this.bounds[i] }, sharedLabels: series.labels, value: cumulative, metricName: bucket } as Exported['values'][number]);
      }
      cumulative += series.counts[this.bounds.length] ?? 0;
      values.push({ labels: { le: '+Inf' }, sharedLabels: series.labels, value: cumulative, metricName: bucket } as Exported['values'][number]);
      values.push({ labels: {}, sharedLabels: series.labels, value: series.sum, metricName: `${name}_sum` } as Exported['values'][number]);
      values.push({ labels: {}, sharedLabels: series.labels, value: cumulative, metricName: `${name}_count` } as Exported['values'][number]);
    }
    // prom-client's typings call the type an enum; at run time it is the word written after # TYPE.
    return { name, help, type: 'histogram' as unknown as Exported['type'], values, aggregator, collect: () => undefined };
  }

  /** The JSON form (registry.getMetricsAsJSON()): each value's labels with the series' labels merged in. */
  override async get(): Promise<Exported> {
    const data = await this.getForPromString();
    data.values = data.values.map((value) => {
      const { sharedLabels, ...rest } = value as typeof value & { sharedLabels: Record<string, string> };
      return { ...rest, labels: { ...value.labels, ...sharedLabels } };
    });
    return data;
  }
}
