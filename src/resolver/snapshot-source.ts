import type { RegistrySnapshot } from '../core/registry-snapshot.js';

/** What the resolver's routes need from the snapshot holder (SnapshotStore, or a fixed one in tests). */
export interface SnapshotSource {
  readonly snapshot: RegistrySnapshot;
  /** Null when the snapshot is known to be current; otherwise why it may be stale. */
  readonly staleReason: string | null;
}
