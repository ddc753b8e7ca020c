/**
 * Reads /metrics answers with a parser of the Prometheus text format that is not prom-client's
 * (parse-prometheus-text-format, ported from the Prometheus Python client's): what a scraper reads, not what
 * our library believes it wrote.
 */
import parsePrometheusTextFormat, { type ParsedFamily, type ParsedSample } from 'parse-prometheus-text-format';

export type { ParsedFamily };

const TYPE_LINE = /^# TYPE .*$/gm;

export class ScrapedMetrics {
  private constructor(
    /** The families as typed by the text (COUNTER, GAUGE, HISTOGRAM...). */
    readonly families: ParsedFamily[],
    /** Every series read untyped, so that a labelled histogram's _bucket, _sum and _count keep their labels. */
    private readonly series: ParsedFamily[],
  ) {}

  /** Throws when the text is not in the Prometheus text format. */
  static parse(text: string): ScrapedMetrics {
    // The parser folds a histogram's series into one, losing their labels; read without the TYPE lines, each
    // of _bucket, _sum and _count is a family of its own with its samples' labels.
    return new ScrapedMetrics(parsePrometheusTextFormat(text), parsePrometheusTextFormat(text.replace(TYPE_LINE, '')));
  }

  family(name: string): ParsedFamily | undefined {
    return this.families.find((f) => f.name === name);
  }

  /** The sample of series `name` (a histogram's `x_count`, say) whose labels include `labels`. */
  sample(name: string, labels: Record<string, string> = {}): ParsedSample | undefined {
    const samples = this.series.filter((f) => f.name === name).flatMap((f) => f.metrics);
    return samples.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  }

  /** A counter's or gauge's value (0 when the series is absent, as for a counter never incremented). */
  value(name: string, labels: Record<string, string> = {}): number {
    return Number(this.sample(name, labels)?.value ?? 0);
  }

  /** A histogram's observation count (0 when the series is absent). */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.value(`${name}_count`, labels);
  }

  /** A histogram's cumulative count at bucket `le` ('+Inf', '0.005', ...). */
  bucket(name: string, le: string, labels: Record<string, string> = {}): number {
    return this.value(`${name}_bucket`, { ...labels, le });
  }
}
