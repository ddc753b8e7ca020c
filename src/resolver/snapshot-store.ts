import type { Db } from '../db/knex.js';
import { RegistryChangeListener } from '../db/registry-change-listener.js';
import type { Logger } from '../lib/logger.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { checkSnapshotPatterns, type LuiPatternCheckSummary } from './lui-pattern-checks.js';
import { loadRegistry, refreshRegistry, type LoadedRegistry } from './snapshot-loader.js';

export interface SnapshotStoreOptions {
  db: Db;
  databaseUrl: string;
  logger: Logger;
  checkIntervalMs: number;
}

/**
 * Holds the resolver's current snapshot and keeps it up to date: LISTEN registry_changes for immediate
 * updates (db/registry-change-listener.ts, which listens again by itself after a lost connection), a
 * periodic check for a missed notification, one refresh at a time (requests arriving during a
 * refresh coalesce into one more). When Postgres is unreachable the last snapshot keeps serving.
 */
export class SnapshotStore {
  private loaded!: LoadedRegistry;
  private listener: RegistryChangeListener | null = null;
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastError: string | null = null;
  private readonly changeHandlers: ((snapshot: RegistrySnapshot) => void)[] = [];
  private checks: Promise<LuiPatternCheckSummary> = Promise.resolve({ checked: 0, flagged: 0, ms: 0 });

  constructor(private readonly options: SnapshotStoreOptions) {}

  get snapshot(): RegistrySnapshot {
    return this.loaded.snapshot;
  }

  /** Why the last refresh failed, or null when the snapshot is known to be current. */
  get staleReason(): string | null {
    return this.lastError;
  }

  /** Settles when the ReDoS checks of the current snapshot's new LUI patterns are done (never rejects). */
  get patternChecks(): Promise<LuiPatternCheckSummary> {
    return this.checks;
  }

  onChange(handler: (snapshot: RegistrySnapshot) => void): void {
    this.changeHandlers.push(handler);
  }

  async start(): Promise<void> {
    this.loaded = await loadRegistry(this.options.db);
    // Not awaited: until a pattern's verdict arrives it is matched in linear time (lui-pattern-checks.ts).
    this.checks = checkSnapshotPatterns(this.loaded.snapshot, this.options.logger);
    this.listener = new RegistryChangeListener({
      databaseUrl: this.options.databaseUrl,
      logger: this.options.logger,
      debounceMs: 0,
      onChange: () => void this.refreshSoon(),
    });
    await this.listener.start();
    // Anything committed between the load and the LISTEN is caught by reading the log once now.
    void this.refreshSoon();
    this.timer = setInterval(() => this.refreshSoon(), this.options.checkIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.refreshing;
    await this.listener?.stop();
  }

  /** Schedules a refresh; calls during a running refresh fold into one more after it. */
  refreshSoon(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        await this.refreshOnce();
      } while (this.again && !this.stopped);
      this.refreshing = null;
    })();
    return this.refreshing;
  }

  private async refreshOnce(): Promise<void> {
    try {
      const next = await refreshRegistry(this.options.db, this.loaded);
      this.lastError = null;
      if (next === this.loaded) return;
      this.loaded = next;
      this.checks = checkSnapshotPatterns(next.snapshot, this.options.logger);
      for (const handler of this.changeHandlers) handler(next.snapshot);
    } catch (error) {
      this.lastError = `cannot refresh the registry snapshot from Postgres: ${(error as Error).message}`;
      this.options.logger.warn({ err: error }, 'snapshot refresh failed; serving the last snapshot');
    }
  }
}
