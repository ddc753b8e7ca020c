import { maxAgeFunction, type MaxAge, type RegistryVersion } from './registry-version.js';

export interface VersionedCacheOptions {
  /**
   * Longest a value is reused even when the registry version has not moved (see registry-version.ts): a
   * number, or a function asked at each use (RegistryVersionSource.maxAgeMs, longer while it listens).
   */
  ttlMs?: MaxAge;
  maxEntries?: number;
}

interface Entry<V> {
  value: V;
  at: number;
}

/**
 * Values computed from the registry, kept while the registry version they were computed at is current
 * (and for ttlMs at most). Concurrent requests for the same missing value share one computation; the
 * oldest entries go first beyond maxEntries.
 */
export class VersionedCache<V> {
  private version: RegistryVersion | undefined = undefined;
  private readonly entries = new Map<string, Entry<V>>();
  private readonly pending = new Map<string, Promise<V>>();
  private readonly ttlMs: () => number;
  private readonly maxEntries: number;

  constructor(options: VersionedCacheOptions = {}) {
    this.ttlMs = maxAgeFunction(options.ttlMs);
    this.maxEntries = options.maxEntries ?? 1000;
  }

  async get(version: RegistryVersion, key: string, compute: () => Promise<V>): Promise<V> {
    if (version !== this.version) {
      this.entries.clear();
      this.pending.clear();
      this.version = version;
    }
    const hit = this.entries.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs()) return hit.value;
    const inFlight = this.pending.get(key);
    if (hit) {
      // Expired at the same version: answer with it and refresh behind, so that a costly value (the id
      // list of 100,000 namespaces) never makes every waiting request stall when its time is up.
      if (!inFlight) void this.refresh(version, key, compute).catch(() => undefined);
      return hit.value;
    }
    if (inFlight) return inFlight;
    return this.refresh(version, key, compute);
  }

  private async refresh(version: RegistryVersion, key: string, compute: () => Promise<V>): Promise<V> {
    const started = Date.now();
    const promise = compute();
    this.pending.set(key, promise);
    try {
      const value = await promise;
      if (this.version === version) this.remember(key, { value, at: started });
      return value;
    } finally {
      if (this.pending.get(key) === promise) this.pending.delete(key);
    }
  }

  private remember(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, entry);
  }
}
