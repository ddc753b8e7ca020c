import { Counter, type Registry } from 'prom-client';
import type { Logger } from '../lib/logger.js';

/** How often at most a process logs that its rate limits are counted in memory. */
export const FALLBACK_LOG_INTERVAL_MS = 60_000;

/**
 * The registry's rate limits counted in one process's memory instead of Redis (unreachable, or slower than
 * the store's timeout, as when the event loop is blocked): each client may then get up to its limit from
 * every process. Counted in curie_rate_limit_fallback_total by family, and logged at most once per
 * FALLBACK_LOG_INTERVAL_MS with how many requests were counted so since the last line.
 */
export class RateLimitFallbacks {
  readonly #counters: ReadonlyMap<string, { inc: () => void }>;
  readonly #logger: Logger;
  readonly #now: () => number;
  #loggedAt = Number.NEGATIVE_INFINITY;
  #unlogged = 0;

  constructor(registry: Registry, families: readonly string[], logger: Logger, now: () => number = Date.now) {
    const counter = new Counter({
      name: 'curie_rate_limit_fallback_total',
      help: "Requests whose rate limit was counted in this process's memory because Redis failed or answered too late, by route family.",
      labelNames: ['family'] as const,
      registers: [registry],
    });
    // Created up front: each family shows 0 from the first scrape, and counting allocates nothing.
    for (const family of families) counter.inc({ family }, 0);
    this.#counters = new Map(families.map((family) => [family, counter.labels(family)]));
    this.#logger = logger;
    this.#now = now;
  }

  readonly record = (family: string, error: unknown): void => {
    this.#counters.get(family)?.inc();
    this.#unlogged += 1;
    const now = this.#now();
    if (now - this.#loggedAt < FALLBACK_LOG_INTERVAL_MS) return;
    this.#logger.warn({ err: error, family, requests: this.#unlogged }, 'rate limit store failed or was too slow; counting in this process meanwhile');
    this.#loggedAt = now;
    this.#unlogged = 0;
  };
}
