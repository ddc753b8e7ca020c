import pg from 'pg';
import type { Db } from '../db/knex.js';
import type { Logger } from '../lib/logger.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { loadRegistry, refreshRegistry, type LoadedRegistry } from './snapshot-loader.js';

export interface SnapshotStoreOptions {
  db: Db;
  databaseUrl: string;
  logger: Logger;
  checkIntervalMs: number;
}

/**
 * Holds the resolver's current snapshot and keeps it up to date: LISTEN registry_changes for immediate
 * updates, a periodic check for a missed notification, one refresh at a time (requests arriving during a
 * refresh coalesce into one more). When Postgres is unreachable the last snapshot keeps serving.
 */
export class SnapshotStore {
  private loaded!: LoadedRegistry;
  private listener: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private lastError: string | null = null;
  private readonly changeHandlers: ((snapshot: RegistrySnapshot) => void)[] = [];

  constructor(private readonly options: SnapshotStoreOptions) {}

  get snapshot(): RegistrySnapshot {
    return this.loaded.snapshot;
  }

  /** Why the last refresh failed, or null when the snapshot is known to be current. */
  get staleReason(): string | null {
    return this.lastError;
  }

  onChange(handler: (snapshot: RegistrySnapshot) => void): void {
    this.changeHandlers.push(handler);
  }

  async start(): Promise<void> {
    this.loaded = await loadRegistry(this.options.db);
    await this.listen();
    this.timer = setInterval(() => this.refreshSoon(), this.options.checkIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.refreshing;
    await this.listener?.end().catch(() => undefined);
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
      for (const handler of this.changeHandlers) handler(next.snapshot);
    } catch (error) {
      this.lastError = `cannot refresh the registry snapshot from Postgres: ${(error as Error).message}`;
      this.options.logger.warn({ err: error }, 'snapshot refresh failed; serving the last snapshot');
    }
    if (!this.listener && !this.stopped) void this.listen();
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl, connectionTimeoutMillis: 5000 });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.options.logger.warn({ err: error }, 'lost the registry change listener; will listen again at the next check');
    };
    try {
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', () => void this.refreshSoon());
      await client.connect();
      await client.query('LISTEN registry_changes');
      this.listener = client;
      // Anything committed while nobody listened is caught by reading the log once now.
      void this.refreshSoon();
    } catch (error) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
      this.lastError = `cannot listen for registry changes: ${(error as Error).message}`;
    }
  }
}
