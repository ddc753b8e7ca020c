import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * A gauge whose value is read from what it describes each time the registry is scraped (prom-client calls
 * collect() first), never kept up to date in between.
 */
export function gaugeReadAtScrape(registry: Registry, name: string, help: string, read: () => number): Gauge {
  const gauge: Gauge = new Gauge({ name, help, registers: [registry], collect: () => gauge.set(read()) });
  return gauge;
}

/** A counter that its owner counts in a plain number, read at each scrape. */
export function counterReadAtScrape(registry: Registry, name: string, help: string, read: () => number): Counter {
  const counter: Counter = new Counter({
    name,
    help,
    registers: [registry],
    collect: () => {
      counter.reset();
      const value = read();
      if (value > 0) counter.inc(value);
    },
  });
  return counter;
}
