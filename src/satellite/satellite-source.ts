import { measurementsOfWire, wireOfMeasurements } from '../core/measurement-wire.js';
import { buildSnapshot, rankNamespace, rankSnapshot, type NamespaceEntry, type RegistrySnapshot } from '../core/registry-snapshot.js';
import { failingProvidersOf, type SampleMeasurements } from '../core/reliability.js';
import { entryOfWire, type NamespaceOverride, type WireNamespace } from '../core/satellite-wire.js';
import type { Logger } from '../lib/logger.js';
import { checkSnapshotPatterns } from '../resolver/lui-pattern-checks.js';
import { patchSnapshot } from '../resolver/snapshot-loader.js';
import { rankingTagOf, sameMeasurements } from '../resolver/snapshot-store.js';
import type { SnapshotSource } from '../resolver/snapshot-source.js';
import { entriesOfDataset } from '../dataset/dataset-snapshot.js';
import { loadSnapshot, saveSnapshot } from './snapshot-file.js';
import type { FeedEntry, UpstreamClient } from './upstream-client.js';

export interface SatelliteSourceOptions {
  upstream: UpstreamClient;
  logger: Logger;
  /** SATELLITE_SNAPSHOT_DIR. */
  dir: string;
  /** SATELLITE_POLL_INTERVAL_MS. */
  pollIntervalMs: number;
  /** SATELLITE_MEASUREMENT_INTERVAL_MS: how often the link-check measurements are read again. */
  measurementIntervalMs: number;
}

/** Namespaces per /satelliteApi/namespaces request (the endpoint's bound). */
const IDS_PER_REQUEST = 200;
/** Above this many namespaces to read again, loading the dataset again is cheaper. */
const INCREMENTAL_LIMIT = 5000;
/** How often the upstream's database is compared with the snapshot's (a HEAD request of the dataset). */
const DATABASE_CHECK_MS = 60_000;

/**
 * The satellite's snapshot holder (a SnapshotSource, so the resolver app serves from it unchanged): loads the
 * registry from the upstream registry area's dataset file, then follows its change feed every
 * SATELLITE_POLL_INTERVAL_MS, reading the namespaces a change touched from /satelliteApi/namespaces and
 * patching the snapshot as the resolver's loader does. Each applied change is saved to disk, so a restart
 * while the upstream is unreachable serves the last snapshot. While the upstream cannot be reached the
 * snapshot keeps serving and staleReason says why (/health/ready: degraded).
 *
 * The dataset's X-Registry-Change-Cursor is where the feed resumes after it: every change of a transaction
 * older than the build's snapshot is in the file, and the feed gives every later one (some perhaps already in
 * the file: a change is applied by reading its namespace again, so that is harmless). The dataset is loaded
 * again when the feed does not know the cursor, when the upstream's dataset comes from another database than
 * the snapshot's (X-Registry-Database, compared every DATABASE_CHECK_MS: a re-created or restored database
 * has other transaction ids, which a cursor cannot tell), when a change touches a location (which nearly every
 * namespace shows), or when too many namespaces changed at once.
 *
 * The providers are ranked by the upstream's link-check measurements (/satelliteApi/measurements, what the
 * resolvers' SnapshotStore reads from Postgres), applied as the store applies them: read after each load of
 * the dataset and every SATELLITE_MEASUREMENT_INTERVAL_MS, a new reading ranking the snapshot again in place,
 * with the same failing providers and ranking tag, so a satellite's answers, redirects and ETags are a
 * resolver's. They are saved with the snapshot; a failed reading keeps the last ones.
 */
export class SatelliteSource implements SnapshotSource {
  private current: RegistrySnapshot | null = null;
  private byId = new Map<number, NamespaceEntry>();
  private cursor: string | null = null;
  private databaseId: string | null = null;
  /** performance.now() of the last comparison of the upstream's database; null: compare at the next poll. */
  private databaseCheckedAt: number | null = null;
  private upstreamError: string | null = null;
  private measurementError: string | null = null;
  private measurements: SampleMeasurements = new Map();
  private failing: ReadonlySet<number> = new Set();
  private ranking = rankingTagOf(new Map());
  /** performance.now() of the last reading of the measurements (or attempt); null: read at the next poll. */
  private measuredAt: number | null = null;
  private unreachableSince: string | null = null;
  private applied = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private writer: Promise<void> | null = null;
  private dirty = false;
  private stopped = false;

  constructor(private readonly options: SatelliteSourceOptions) {}

  get snapshot(): RegistrySnapshot {
    return this.current!;
  }

  get staleReason(): string | null {
    const unreachable = this.upstreamError === null
      ? null
      : `upstream registry ${this.options.upstream.baseUrl} unreachable since ${this.unreachableSince}: ${this.upstreamError}`;
    if (unreachable && this.measurementError) return `${unreachable}; ${this.measurementError}`;
    return unreachable ?? this.measurementError;
  }

  get appliedAt(): number {
    return this.applied;
  }

  /** As SnapshotStore.failingProviders, from the upstream's measurements. */
  get failingProviders(): ReadonlySet<number> {
    return this.failing;
  }

  /** As SnapshotStore.rankingTag: the same measurements give the same tag, and so the same ETags. */
  get rankingTag(): string {
    return this.ranking;
  }

  /**
   * A namespace's description for the MCP tools, read from the upstream when asked (as a resolver reads it
   * from Postgres); null when the upstream cannot say, and the namespace is described without it.
   */
  readDescription = async (namespace: NamespaceEntry): Promise<string | null> => {
    try {
      const answer = await this.options.upstream.namespaces<WireNamespace>([namespace.id]);
      return answer.namespaces[0]?.description ?? null;
    } catch (error) {
      this.options.logger.warn({ err: error }, 'namespace description unreadable upstream; described without it');
      return null;
    }
  };

  /** The upstream's state for /health/ready's checks: resolves while the last poll reached it. */
  upstreamCheck = async (): Promise<void> => {
    if (this.upstreamError !== null) throw new Error(this.upstreamError);
  };

  /**
   * Serves the snapshot on disk when there is one, then brings it up to date from the upstream once (which
   * may fail: the disk's keeps serving); without one on disk, waits until the upstream gives a first one.
   */
  async start(): Promise<void> {
    const { saved, problem } = await loadSnapshot(this.options.dir, this.options.upstream.baseUrl);
    if (problem) this.options.logger.warn({ dir: this.options.dir }, `snapshot on disk not used: ${problem}`);
    if (saved) {
      this.restoreMeasurements(saved.measurements);
      this.install(saved.registryVersion, saved.namespaces.map(entryOfWire));
      this.cursor = saved.cursor;
      this.databaseId = saved.databaseId ?? null;
      this.options.logger.info({ namespaces: this.byId.size, version: saved.registryVersion, savedAt: saved.savedAt }, 'serving the snapshot saved on disk');
    }
    await this.poll();
    while (!this.current && !this.stopped) {
      this.options.logger.warn({ reason: this.upstreamError }, 'no snapshot yet: waiting for the upstream registry');
      await new Promise((resolve) => setTimeout(resolve, this.options.pollIntervalMs));
      await this.poll();
    }
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await this.writer;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.poll().then(() => this.schedule());
    }, this.options.pollIntervalMs);
    this.timer.unref();
  }

  /** One round: the dataset when there is no cursor, then the feed until it has nothing more. Never rejects. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => (this.polling = null));
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    try {
      if (this.cursor !== null) await this.checkDatabase();
      if (this.cursor === null) await this.loadDataset();
      await this.followFeed();
      if (this.measuredAt === null || performance.now() - this.measuredAt >= this.options.measurementIntervalMs) {
        if (await this.readMeasurements()) {
          rankSnapshot(this.current!, this.measurements);
          this.save();
        }
      }
      if (this.upstreamError !== null) this.options.logger.info('upstream registry reachable again');
      this.upstreamError = null;
      this.unreachableSince = null;
    } catch (error) {
      const message = (error as Error).message;
      if (this.upstreamError === null) {
        this.unreachableSince = new Date().toISOString();
        this.options.logger.warn({ err: error }, 'upstream registry unreachable; serving the last snapshot');
      }
      this.upstreamError = message;
    }
  }

  /** Forgets the cursor when the upstream's dataset names another database than the snapshot's. */
  private async checkDatabase(): Promise<void> {
    const now = performance.now();
    if (this.databaseCheckedAt !== null && now - this.databaseCheckedAt < DATABASE_CHECK_MS) return;
    const databaseId = await this.options.upstream.datasetDatabase();
    this.databaseCheckedAt = now;
    if (databaseId === null || databaseId === this.databaseId) return;
    this.options.logger.warn({ was: this.databaseId, now: databaseId }, 'the upstream registry has another database; loading its dataset again');
    this.cursor = null;
  }

  private async loadDataset(): Promise<void> {
    const started = performance.now();
    const dataset = await this.options.upstream.dataset();
    const overrides = await this.options.upstream.overrides<NamespaceOverride>();
    // Read now, so the new snapshot is ranked by them at once (a resource of the dataset may be new to them).
    await this.readMeasurements();
    this.install(dataset.registryVersion, entriesOfDataset(dataset.namespaces, overrides));
    this.cursor = dataset.cursor;
    this.databaseId = dataset.databaseId;
    this.databaseCheckedAt = performance.now();
    this.options.logger.info(
      { namespaces: this.byId.size, version: dataset.registryVersion, ms: Math.round(performance.now() - started) },
      'registry loaded from the upstream dataset',
    );
    this.save();
  }

  /** Reads the feed from the cursor to its end, applying each page's changes. */
  private async followFeed(): Promise<void> {
    for (;;) {
      const page = await this.options.upstream.changesAfter(this.cursor!);
      if (page === null) {
        this.options.logger.warn('the upstream change feed does not know this satellite\'s cursor; loading its dataset again');
        this.cursor = null;
        await this.loadDataset();
        continue;
      }
      if (page.changes.length > 0) {
        if (!(await this.apply(page.changes))) {
          this.cursor = null;
          await this.loadDataset();
          continue;
        }
      }
      const moved = page.next !== this.cursor;
      this.cursor = page.next;
      if (page.changes.length > 0 || moved) this.save();
      if (!page.more) return;
    }
  }

  /** Applies a page of changes; false when they call for the whole dataset instead. */
  private async apply(changes: FeedEntry[]): Promise<boolean> {
    const affected = new Set<number>();
    for (const change of changes) {
      if (change.entity === 'namespace') affected.add(Number(change.entityId));
      else if (change.entity === 'institution') {
        const institutionId = Number(change.entityId);
        for (const ns of this.byId.values()) if (ns.resources.some((r) => r.institution.id === institutionId)) affected.add(ns.id);
      } else return false;
    }
    if (affected.size > INCREMENTAL_LIMIT) return false;
    const ids = [...affected];
    const fresh: NamespaceEntry[] = [];
    let version = this.current?.version ?? 0;
    for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
      const answer = await this.options.upstream.namespaces<WireNamespace>(ids.slice(i, i + IDS_PER_REQUEST));
      for (const ns of answer.namespaces) fresh.push(entryOfWire(ns));
      version = Math.max(version, answer.registryVersion);
    }
    for (const ns of fresh) rankNamespace(ns, this.measurements);
    const next = patchSnapshot({ snapshot: this.current!, namespacesById: this.byId }, version, affected, fresh);
    const byId = new Map(this.byId);
    for (const id of affected) byId.delete(id);
    for (const ns of fresh) byId.set(ns.id, ns);
    this.put(next, byId);
    this.options.logger.info({ changes: changes.length, namespaces: affected.size, version }, 'upstream changes applied');
    return true;
  }

  /**
   * Reads the upstream's measurements (as SnapshotStore.readMeasurements does Postgres's); true when they
   * differ from those held. A failure (an upstream of an older version answers 404) keeps the last ones and
   * is tried again after the interval.
   */
  private async readMeasurements(): Promise<boolean> {
    this.measuredAt = performance.now();
    try {
      const next = measurementsOfWire(await this.options.upstream.measurements());
      this.measurementError = null;
      if (sameMeasurements(next, this.measurements)) return false;
      this.holdMeasurements(next);
      return true;
    } catch (error) {
      if (this.measurementError === null) this.options.logger.warn({ err: error }, 'link-check measurements unreadable upstream; ranking by the last ones');
      this.measurementError = `cannot read the link-check measurements from the upstream: ${(error as Error).message}`;
      return false;
    }
  }

  private holdMeasurements(measurements: SampleMeasurements): void {
    this.measurements = measurements;
    this.failing = failingProvidersOf(measurements);
    this.ranking = rankingTagOf(measurements);
  }

  /** The measurements of the snapshot on disk; a damaged list is left out (none), read again at the first poll. */
  private restoreMeasurements(wire: unknown): void {
    if (wire === undefined) return;
    try {
      this.holdMeasurements(measurementsOfWire(wire));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'the measurements of the snapshot on disk are not used');
    }
  }

  private install(version: number, entries: NamespaceEntry[]): void {
    this.put(buildSnapshot(version, entries, this.measurements), new Map(entries.map((e) => [e.id, e])));
  }

  private put(snapshot: RegistrySnapshot, byId: Map<number, NamespaceEntry>): void {
    this.current = snapshot;
    this.byId = byId;
    this.applied = Date.now();
    // As the resolver's store: until a pattern's ReDoS verdict arrives it is matched in linear time.
    void checkSnapshotPatterns(snapshot, this.options.logger, {});
  }

  /** Saves the current snapshot to disk soon: one write at a time, and the latest state last. */
  private save(): void {
    this.dirty = true;
    this.writer ??= this.writeWhileDirty().finally(() => (this.writer = null));
  }

  private async writeWhileDirty(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      const state = {
        upstream: this.options.upstream.baseUrl,
        cursor: this.cursor!,
        registryVersion: this.current!.version,
        databaseId: this.databaseId,
        measurements: wireOfMeasurements(this.measurements),
      };
      try {
        await saveSnapshot(this.options.dir, state, this.byId.values());
      } catch (error) {
        this.options.logger.error({ err: error, dir: this.options.dir }, 'cannot save the snapshot to disk');
      }
    }
  }
}
