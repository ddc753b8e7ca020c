import { Counter, type Registry } from 'prom-client';

/**
 * How old the text a scrape is answered may be. Rendering a registry costs about 6 ms of the event loop (the
 * process metrics, every histogram), and /metrics is open by default and never rate limited (monitoring must
 * not be locked out): 64 connections scraping in a loop took the resolver's p99 to 1.8 s. A copy at most a
 * second old serves any number of scrapes for one render a second, while Prometheus, scraping every 10 s or
 * more, still reads every counter within a second of where it is. Chosen over a rate limit, which would
 * refuse the monitoring itself when someone else floods the endpoint.
 */
export const METRICS_MAX_AGE_MS = 1000;

export interface RenderedMetricsOptions {
  maxAgeMs?: number;
  /** Milliseconds on a monotonic clock (tests set the time). */
  now?: () => number;
}

/**
 * The Prometheus text of a registry, rendered at most once per `maxAgeMs` (METRICS_MAX_AGE_MS): scrapes within
 * that time, and those that come while a render is under way, share one render. Renders are counted in the
 * registry itself (curie_metrics_renders_total), so a scrape shows which render it was answered from.
 */
export class RenderedMetrics {
  readonly #registry: Registry;
  readonly #maxAgeMs: number;
  readonly #now: () => number;
  readonly #renders: Counter;
  #text: Promise<string> | undefined;
  #startedAt = 0;
  #underWay = false;

  constructor(registry: Registry, options: RenderedMetricsOptions = {}) {
    this.#registry = registry;
    this.#maxAgeMs = options.maxAgeMs ?? METRICS_MAX_AGE_MS;
    this.#now = options.now ?? (() => performance.now());
    this.#renders = new Counter({
      name: 'curie_metrics_renders_total',
      help: `Renders of this process's metrics text: scrapes within ${METRICS_MAX_AGE_MS} ms of one another share one.`,
      registers: [registry],
    });
  }

  /** The text of the last render when it is recent enough (or still under way), else of a new one. */
  text(): Promise<string> {
    const now = this.#now();
    if (this.#text && (this.#underWay || now - this.#startedAt < this.#maxAgeMs)) return this.#text;
    this.#startedAt = now;
    this.#underWay = true;
    // Counted first, so that the render shows itself.
    this.#renders.inc();
    const text = this.#registry.metrics();
    const settled = () => {
      this.#underWay = false;
    };
    text.then(settled, settled);
    this.#text = text;
    return text;
  }
}
