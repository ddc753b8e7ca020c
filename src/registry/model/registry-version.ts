import type { Db } from '../../db/knex.js';
import type { ReadDb } from '../../db/read-db.js';
import { RegistryChangeListener } from '../../db/registry-change-listener.js';
import { readRegistryVersion } from '../../db/registry-reads.js';
import type { Logger } from '../../lib/logger.js';

/** A value that changes whenever the registry's content may have changed; caches key their entries by it. */
export type RegistryVersion = string;

/** How long a cached value is reused at an unchanged version when no change listener runs. */
export const VERSIONED_CACHE_TTL_MS = 10_000;
/** The same while the listener runs: it already sees every commit, this only bounds a lost notification. */
export const LISTENING_CACHE_TTL_MS = 10 * 60_000;

/** How long a cached value may be reused: a fixed time, or one asked at each use (see maxAgeMs below). */
export type MaxAge = number | (() => number);

/** A MaxAge as the function the caches call, VERSIONED_CACHE_TTL_MS when none is given. */
export function maxAgeFunction(maxAge: MaxAge = VERSIONED_CACHE_TTL_MS): () => number {
  return typeof maxAge === 'number' ? () => maxAge : maxAge;
}

/**
 * The registry version the browse caches key by. Triggers log every committed change in registry_changes,
 * so max(version) (an index probe, microseconds) moves on every write and a change shows in the very next
 * answer. Versions are taken before commit, though, so a write can become visible after a later one
 * without moving the maximum. A registry change listener closes that gap: NOTIFY is delivered at commit,
 * in commit order, and each notification moves a local generation that is part of the version. Without a
 * listener (tests, or while its connection is down) cached values expire after VERSIONED_CACHE_TTL_MS to
 * bound that rare staleness. While the listener listens, the notifications alone say when the registry
 * changed, and the probe is skipped.
 */
export class RegistryVersionSource {
  private generation = 0;
  private readonly listener: RegistryChangeListener | null;

  /**
   * `db`: where the browse answers are read (the replica of DATABASE_READ_URL when set); `listen`: the
   * primary, where changes are announced. With a replica, `reads` moves the generation a second time once
   * the replica shows the change: answers read (and cached) in between may be the registry as it was.
   */
  constructor(
    private readonly db: Db,
    listen?: { databaseUrl: string; logger: Logger; reads?: ReadDb },
  ) {
    const reads = listen?.reads?.separate ? listen.reads : undefined;
    const changed = () => {
      this.generation++;
      if (reads) void reads.catchUp().then(() => void this.generation++, () => void this.generation++);
    };
    this.listener = listen ? new RegistryChangeListener({ databaseUrl: listen.databaseUrl, logger: listen.logger, debounceMs: 0, onChange: changed }) : null;
  }

  start(): Promise<void> {
    return this.listener?.start() ?? Promise.resolve();
  }

  stop(): Promise<void> {
    return this.listener?.stop() ?? Promise.resolve();
  }

  async read(): Promise<RegistryVersion> {
    // While listening, every commit moves the generation (and so does a reconnection, which may have missed
    // some): the generation alone is the version, and a browse answer costs no query at all. The database
    // probe, at some 4,500 answers a second, was most of Postgres's load and of the browse p99 at scale.
    if (this.listener?.listening) return `n${this.generation}`;
    return `${await readRegistryVersion(this.db)}.${this.generation}`;
  }

  /** How long a value cached at one version may be reused. */
  readonly maxAgeMs = (): number => (this.listener?.listening ? LISTENING_CACHE_TTL_MS : VERSIONED_CACHE_TTL_MS);
}
