import type { RegistrySnapshot } from '../core/registry-snapshot.js';

/** What the resolver's routes need from the snapshot holder (SnapshotStore, or a fixed one in tests). */
export interface SnapshotSource {
  readonly snapshot: RegistrySnapshot;
  /** Null when the snapshot is known to be current; otherwise why it may be stale. */
  readonly staleReason: string | null;
  /**
   * Resources whose sample URL has been not_found for days (core/reliability.ts): never the browser's
   * redirect target while another provider works. Absent: none.
   */
  readonly failingProviders?: ReadonlySet<number>;
  /**
   * Names the link-check measurements the providers are ranked by, which change the answers without a new
   * snapshot version: the same in every resolver process holding the same measurements. Part of the answers'
   * entity tags (resolution-caching.ts). Absent: no measurements.
   */
  readonly rankingTag?: string;
  /** When the snapshot held was put in place (Date.now()), for its age in the metrics. Absent: unknown. */
  readonly appliedAt?: number;
}
