import { createHash } from 'node:crypto';
import type { Db } from '../db/knex.js';
import type { ReadDb } from '../db/read-db.js';
import { LINK_CHECKS_CHANNEL } from '../db/link-check-changes.js';
import { readSampleMeasurements } from '../db/link-check-reads.js';
import { REGISTRY_CHANGES_CHANNEL, RegistryChangeListener } from '../db/registry-change-listener.js';
import type { Logger } from '../lib/logger.js';
import { rankSnapshot, type RegistrySnapshot } from '../core/registry-snapshot.js';
import { failingProvidersOf, type SampleMeasurement, type SampleMeasurements } from '../core/reliability.js';
import { checkSnapshotPatterns, type LuiPatternCheckSummary } from './lui-pattern-checks.js';
import { loadRegistry, refreshRegistry, type LoadedRegistry } from './snapshot-loader.js';

export interface SnapshotStoreOptions {
  db: Db;
  /**
   * Where the registry and the measurements are read (DATABASE_READ_URL's replica); `db` by default. The
   * notifications are heard on `databaseUrl`, the primary.
   */
  reads?: ReadDb;
  databaseUrl: string;
  logger: Logger;
  checkIntervalMs: number;
  /** How often the link-check measurements are read again without a notification; 5 minutes by default. */
  measurementIntervalMs?: number;
  /**
   * Told, in seconds, how long after a registry change notification the snapshot was brought up to date
   * (the change-notification lag of the metrics): from the first notification a refresh covers to its end.
   */
  onChangeApplied?: (lagSeconds: number) => void;
  /** The ReDoS checker's time for a LUI pattern's first check (lui-pattern-checks.ts); its default by default. */
  patternCheckTimeoutMs?: number;
}

/**
 * Measurements depend on the time as well as on new checks (the 7-day window slides, a not_found streak
 * comes of age), so they are read again this often even when no check was stored.
 */
const MEASUREMENT_INTERVAL_MS = 5 * 60_000;

type RefreshKind = 'registry' | 'measurements';

function sameMeasurement(a: SampleMeasurement, b: SampleMeasurement | undefined): boolean {
  return b !== undefined && a.up === b.up && a.counted === b.counted && a.uncounted === b.uncounted && a.notFoundStreak === b.notFoundStreak;
}

/** Whether two readings hold the same measurements (a new reading that does not differ ranks nothing again). */
export function sameMeasurements(a: SampleMeasurements, b: SampleMeasurements): boolean {
  if (a.size !== b.size) return false;
  for (const [id, m] of a) if (!sameMeasurement(m, b.get(id))) return false;
  return true;
}

/**
 * A short digest of the measurements, in resource order: equal measurements give equal tags in every process
 * (a satellite, holding its upstream's measurements, tags its answers as the upstream's resolvers do).
 */
export function rankingTagOf(measurements: SampleMeasurements): string {
  const hash = createHash('sha256');
  for (const id of [...measurements.keys()].sort((a, b) => a - b)) {
    const m = measurements.get(id)!;
    hash.update(`${id}:${m.up}:${m.counted}:${m.uncounted}:${m.notFoundStreak ? 1 : 0};`);
  }
  return hash.digest('base64url').slice(0, 10);
}

/**
 * Holds the resolver's current snapshot and keeps it up to date: LISTEN registry_changes for immediate
 * updates (db/registry-change-listener.ts, which listens again by itself after a lost connection), a
 * periodic check for a missed notification, one refresh at a time (requests arriving during a
 * refresh coalesce into one more). When Postgres is unreachable the last snapshot keeps serving.
 *
 * It also keeps the link-check measurements the resources are ranked by (core/reliability.ts): read with
 * the registry, again on each `link_checks` notification (the link-check worker sends one per stored batch)
 * and every few minutes. A new reading ranks the snapshot's resources again in place (one aggregate query,
 * no registry read), so no request computes a recommendation.
 */
export class SnapshotStore {
  private loaded!: LoadedRegistry;
  private listener: RegistryChangeListener | null = null;
  private timer: NodeJS.Timeout | null = null;
  private measurementTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<void> | null = null;
  private readonly pending: Record<RefreshKind, boolean> = { registry: false, measurements: false };
  private stopped = false;
  private lastError: string | null = null;
  private measurementError: string | null = null;
  private measurements: SampleMeasurements = new Map();
  private failing: ReadonlySet<number> = new Set();
  private ranking = rankingTagOf(new Map());
  private readonly changeHandlers: ((snapshot: RegistrySnapshot) => void)[] = [];
  private checks: Promise<LuiPatternCheckSummary> = Promise.resolve({ checked: 0, flagged: 0, unfinished: 0, ms: 0 });
  /** Whether the last pattern check left patterns whose check did not finish, to be checked again. */
  private patternsUnfinished = false;
  private applied = 0;
  /** performance.now() of the first registry change notification no refresh has covered yet. */
  private notifiedAt: number | null = null;

  private readonly readDb: Db;

  constructor(private readonly options: SnapshotStoreOptions) {
    this.readDb = options.reads?.db ?? options.db;
  }

  get snapshot(): RegistrySnapshot {
    return this.loaded.snapshot;
  }

  /** Why the last refresh failed, or null when the snapshot is known to be current. */
  get staleReason(): string | null {
    if (this.lastError && this.measurementError) return `${this.lastError}; ${this.measurementError}`;
    return this.lastError ?? this.measurementError;
  }

  /** Resources whose sample URL has been not_found for days: never the redirect target while another works. */
  get failingProviders(): ReadonlySet<number> {
    return this.failing;
  }

  get rankingTag(): string {
    return this.ranking;
  }

  get appliedAt(): number {
    return this.applied;
  }

  /** Settles when the ReDoS checks of the current snapshot's unjudged LUI patterns are done (never rejects). */
  get patternChecks(): Promise<LuiPatternCheckSummary> {
    return this.checks;
  }

  onChange(handler: (snapshot: RegistrySnapshot) => void): void {
    this.changeHandlers.push(handler);
  }

  async start(): Promise<void> {
    await this.readMeasurements();
    this.loaded = await loadRegistry(this.readDb, this.measurements);
    this.applied = Date.now();
    // Not awaited: until a pattern's verdict arrives it is matched in linear time (lui-pattern-checks.ts).
    this.checkPatterns();
    this.listener = new RegistryChangeListener({
      databaseUrl: this.options.databaseUrl,
      logger: this.options.logger,
      channels: [REGISTRY_CHANGES_CHANNEL, LINK_CHECKS_CHANNEL],
      debounceMs: 0,
      onChange: (why, channels) => {
        // A registry change reads the measurements too: a new resource may already have checks.
        if (channels.has(REGISTRY_CHANGES_CHANNEL)) {
          if (why === 'notification') this.notifiedAt ??= performance.now();
          void this.refreshSoon();
        }
        else if (channels.has(LINK_CHECKS_CHANNEL)) void this.refreshMeasurementsSoon();
      },
    });
    await this.listener.start();
    // Anything committed between the load and the LISTEN is caught by reading the log once now.
    void this.refreshSoon();
    this.timer = setInterval(() => {
      void this.schedule('registry');
      // A check that ran out of time at a busy moment (a start) is asked again now, with more time.
      if (this.patternsUnfinished) this.checkPatterns();
    }, this.options.checkIntervalMs);
    this.timer.unref();
    this.measurementTimer = setInterval(() => this.refreshMeasurementsSoon(), this.options.measurementIntervalMs ?? MEASUREMENT_INTERVAL_MS);
    this.measurementTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.measurementTimer) clearInterval(this.measurementTimer);
    await this.refreshing;
    await this.listener?.stop();
  }

  /** Schedules a refresh of the registry and the measurements; calls during a running refresh fold into one more after it. */
  refreshSoon(): Promise<void> {
    this.pending.measurements = true;
    return this.schedule('registry');
  }

  /** Schedules a reading of the link-check measurements only (the registry is not read). */
  refreshMeasurementsSoon(): Promise<void> {
    return this.schedule('measurements');
  }

  private schedule(kind: RefreshKind): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.pending[kind] = true;
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      while ((this.pending.registry || this.pending.measurements) && !this.stopped) {
        const { registry, measurements } = this.pending;
        this.pending.registry = false;
        this.pending.measurements = false;
        // Every change notified before this point is committed, so the registry read below includes it.
        const notifiedAt = registry ? this.notifiedAt : null;
        if (registry) this.notifiedAt = null;
        // A replica shows what the notification announced only once it has replayed that far.
        await this.catchUp();
        // Measurements first, so that the namespaces a registry refresh reads are ranked from the new ones.
        if (measurements) await this.refreshMeasurements();
        if (registry) this.settleChange(notifiedAt, await this.refreshOnce());
      }
      this.refreshing = null;
    })();
    return this.refreshing;
  }

  private async catchUp(): Promise<void> {
    try {
      await this.options.reads?.catchUp();
    } catch (error) {
      // The read that follows fails too, and says why; until then the snapshot keeps serving.
      this.options.logger.warn({ err: error }, 'cannot compare the read replica with the primary');
    }
  }

  /** Reads the measurements; true when they differ from those held. Failures keep the old ones. */
  private async readMeasurements(): Promise<boolean> {
    try {
      const next = await readSampleMeasurements(this.readDb);
      this.measurementError = null;
      if (sameMeasurements(next, this.measurements)) return false;
      this.measurements = next;
      this.failing = failingProvidersOf(next);
      this.ranking = rankingTagOf(next);
      return true;
    } catch (error) {
      this.measurementError = `cannot read the link-check measurements from Postgres: ${(error as Error).message}`;
      this.options.logger.warn({ err: error }, 'link-check measurements refresh failed; ranking by the last ones');
      return false;
    }
  }

  private async refreshMeasurements(): Promise<void> {
    if (await this.readMeasurements()) rankSnapshot(this.loaded.snapshot, this.measurements);
  }

  /** Checks the current snapshot's unjudged LUI patterns, in the background; `patternChecks` settles with it. */
  private checkPatterns(): void {
    this.patternsUnfinished = false;
    const checks = checkSnapshotPatterns(this.loaded.snapshot, this.options.logger, {
      timeoutMs: this.options.patternCheckTimeoutMs,
      recallFrom: this.readDb,
      keepIn: this.options.db,
    });
    this.checks = checks;
    void checks.then(({ unfinished }) => {
      // A newer check (a refresh meanwhile) has the say: it waited for this one's patterns or checked them.
      if (this.checks === checks) this.patternsUnfinished = unfinished > 0;
    });
  }

  /** After a registry refresh: its lag since the notification it covered, or, when it failed, the notification kept for the next. */
  private settleChange(notifiedAt: number | null, refreshed: boolean): void {
    if (notifiedAt === null) return;
    if (refreshed) this.options.onChangeApplied?.((performance.now() - notifiedAt) / 1000);
    else this.notifiedAt ??= notifiedAt;
  }

  /** Brings the snapshot up to date; false when Postgres could not be read (the last snapshot keeps serving). */
  private async refreshOnce(): Promise<boolean> {
    try {
      const next = await refreshRegistry(this.readDb, this.loaded, this.measurements);
      this.lastError = null;
      if (next === this.loaded) return true;
      this.loaded = next;
      this.applied = Date.now();
      this.checkPatterns();
      for (const handler of this.changeHandlers) handler(next.snapshot);
      return true;
    } catch (error) {
      this.lastError = `cannot refresh the registry snapshot from Postgres: ${(error as Error).message}`;
      this.options.logger.warn({ err: error }, 'snapshot refresh failed; serving the last snapshot');
      return false;
    }
  }
}
