import { flag, positiveNumber, readCommonSettings, type CommonSettings } from '../lib/settings.js';

/** Everything the hostile benchmark can be told through the environment, read once. */
export interface HostileSettings extends Omit<CommonSettings, 'durationS' | 'warmupS' | 'runs'> {
  databaseName: string;
  /** BullMQ key prefix (and rate-limit keys) of both areas under test. */
  queuePrefix: string;
  /** Attack window per route (HOSTILE_WINDOW_MS); a route's attack goes on until each case was sent once. */
  windowMs: number;
  /** Attacker connections per route (HOSTILE_CONNECTIONS). */
  connections: number;
  /** Only the operations whose `area METHOD /path` matches (HOSTILE_ROUTES, a regular expression). */
  routes: RegExp | null;
  /** Exit 1 when a route misses a target (HOSTILE_STRICT); by default the run only reports. */
  strict: boolean;
  /** An attack answer slower than this is given up and counted as a timeout (HOSTILE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Pause after each attack before the probe's window is read (its last requests are answered meanwhile). */
  settleMs: number;
  probeResolverPerSecond: number;
  probeRegistryPerSecond: number;
}

function routeFilter(): RegExp | null {
  const raw = process.env.HOSTILE_ROUTES;
  if (!raw) return null;
  try {
    return new RegExp(raw);
  } catch (error) {
    throw new Error(`HOSTILE_ROUTES=${JSON.stringify(raw)} is not a regular expression: ${(error as Error).message}`, { cause: error });
  }
}

export function readHostileSettings(): HostileSettings {
  const { durationS: _d, warmupS: _w, runs: _r, ...common } = readCommonSettings({ connections: 6 });
  return {
    ...common,
    databaseName: 'curie_hostile_bench',
    queuePrefix: `bench-hostile-${process.pid}`,
    windowMs: Math.round(positiveNumber('HOSTILE_WINDOW_MS', 1500)),
    connections: Math.round(positiveNumber('HOSTILE_CONNECTIONS', 6)),
    routes: routeFilter(),
    strict: flag('HOSTILE_STRICT'),
    timeoutMs: Math.round(positiveNumber('HOSTILE_TIMEOUT_MS', 30_000)),
    settleMs: 250,
    // Under the areas' default per-address limits (6,000 resolutions and 1,200 browse reads a minute): the
    // probe must never be refused, or its figures would measure the limiter.
    probeResolverPerSecond: 50,
    probeRegistryPerSecond: 25,
  };
}
