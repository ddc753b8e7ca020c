import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The one registry of a process (each area and each worker is a process of its own), with prom-client's
 * process metrics (CPU, memory, event-loop lag, GC, handles), read when it is scraped. Never prom-client's
 * global registry: tests build several areas in one process, each with its own.
 */
export function createProcessRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
