import pg from 'pg';
import type { Logger } from '../lib/logger.js';

/** The channel every committed registry change is announced on (see the registry_changes migration). */
export const REGISTRY_CHANGES_CHANNEL = 'registry_changes';

export interface RegistryChangeListenerOptions {
  databaseUrl: string;
  logger: Logger;
  /** The channels to LISTEN on; REGISTRY_CHANGES_CHANNEL alone by default. */
  channels?: readonly string[];
  /**
   * Called after a burst of notifications has been quiet for `debounceMs`, with the channels notified during
   * the burst, and after each reconnection with every channel (notifications sent while nobody listened are
   * lost, so a reconnection counts as a change on each).
   */
  onChange: (why: 'notification' | 'reconnected', channels: ReadonlySet<string>) => void;
  /** 0 calls onChange on the next turn of the event loop (still once per burst); default 500 ms. */
  debounceMs?: number;
  /** First delay before listening again after the connection is lost; doubles up to 30 s. */
  retryMs?: number;
}

const MAX_RETRY_MS = 30_000;

/** Closes a client that failed; whatever it reports from now on is ignored. */
function discard(client: pg.Client): Promise<void> {
  client.removeAllListeners();
  client.on('error', () => undefined);
  return client.end().catch(() => undefined);
}

/**
 * LISTEN registry_changes on a dedicated connection: every committed registry change NOTIFYs it, at commit
 * and so in commit order (see the registry_changes migration). Other channels can be listened to on the same
 * connection (the resolver also listens for stored link checks). Used by every process that keeps something
 * derived from the registry: the resolver's snapshot, the registry area's answer caches, the dataset
 * worker's rebuilds. A lost connection is opened again with back-off; since notifications sent meanwhile
 * are lost, a reconnection counts as a change.
 */
export class RegistryChangeListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private debounce: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private retryDelay: number;
  private hasListened = false;
  private readonly channels: readonly string[];
  /** Channels notified since the last onChange. */
  private notified = new Set<string>();
  private reconnected = false;

  constructor(private readonly options: RegistryChangeListenerOptions) {
    this.retryDelay = options.retryMs ?? 1000;
    this.channels = options.channels ?? [REGISTRY_CHANGES_CHANNEL];
  }

  /** Resolves once listening, or after the first failed attempt (it keeps trying in the background). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.debounce) clearTimeout(this.debounce);
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  get listening(): boolean {
    return this.client !== null;
  }

  private changed(why: 'notification' | 'reconnected', channel?: string): void {
    if (this.stopped) return;
    if (why === 'reconnected') {
      this.reconnected = true;
      for (const name of this.channels) this.notified.add(name);
    } else if (channel !== undefined) {
      this.notified.add(channel);
    }
    if (this.debounce) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      const channels = this.notified;
      const reason = this.reconnected ? 'reconnected' : 'notification';
      this.notified = new Set();
      this.reconnected = false;
      if (!this.stopped) this.options.onChange(reason, channels);
    }, this.options.debounceMs ?? 500);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl, connectionTimeoutMillis: 5000 });
    const lost = (error?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      void discard(client);
      this.retryAfter(error, 'lost the registry change listener; listening again shortly');
    };
    try {
      client.on('error', lost);
      client.on('end', () => lost());
      client.on('notification', (message) => this.changed('notification', message.channel));
      await client.connect();
      // Channel names are the project's own constants, never input.
      for (const channel of this.channels) await client.query(`LISTEN ${channel}`);
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.retryDelay = this.options.retryMs ?? 1000;
      if (this.hasListened) this.changed('reconnected');
      this.hasListened = true;
    } catch (error) {
      await discard(client);
      this.retryAfter(error, 'cannot listen for registry changes; retrying');
    }
  }

  private retryAfter(error: unknown, message: string): void {
    if (this.stopped) return;
    this.options.logger.warn({ err: error }, message);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    const delay = this.retryDelay;
    this.retryDelay = Math.min(this.retryDelay * 2, MAX_RETRY_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      // A failed first attempt still needs the catch-up once it works.
      this.hasListened = true;
      void this.connect();
    }, delay);
    this.retry.unref();
  }
}
