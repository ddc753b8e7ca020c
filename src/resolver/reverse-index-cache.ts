import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import { buildReverseIndex, type ReverseIndex } from '../core/reverse-index.js';
import type { SnapshotSource } from './snapshot-source.js';

/**
 * The reverse-lookup index of the current snapshot, built on the first reverse lookup after a change:
 * resolution never waits for it, and a burst of registry changes costs one build, not one per change.
 */
export class ReverseIndexCache {
  private builtFor: RegistrySnapshot | null = null;
  private index: ReverseIndex | null = null;

  constructor(private readonly registry: SnapshotSource) {}

  current(): ReverseIndex {
    const snapshot = this.registry.snapshot;
    if (this.builtFor !== snapshot || !this.index) {
      this.index = buildReverseIndex(snapshot);
      this.builtFor = snapshot;
    }
    return this.index;
  }
}
