/**
 * The ReDoS check of a snapshot's LUI patterns (resolver/lui-pattern-checks.ts), with the real checker:
 * verdicts land in core and decide the engine, and a pattern is checked once per process whatever the
 * number of snapshots (and namespaces) that carry it.
 */
import { luiPatternVerdict } from '../../src/core/lui-pattern.js';
import { buildSnapshot, type NamespaceEntry } from '../../src/core/registry-snapshot.js';
import { createLogger } from '../../src/lib/logger.js';
import { checkSnapshotPatterns } from '../../src/resolver/lui-pattern-checks.js';
import { aNamespace } from '../factories/snapshot.factory.js';

const logger = createLogger('silent', 'test');

const namespace = (id: number, prefix: string, pattern: string): NamespaceEntry => aNamespace({ id, prefix, pattern, name: prefix });

// Patterns of their own, so that no other test of this process has judged them already.
const SAFE = '^CHECKS\\d{4}$';
const CUBIC = '^\\w+_?\\d+(.\\d+)?(CHECKS)?$';
const ALSO_SAFE = '^CHECKS[A-Z]{2}$';

describe('the ReDoS check of a snapshot', () => {
  it('records each new pattern’s verdict once, and checks only new patterns on the next snapshot', async () => {
    const first = buildSnapshot(1, [namespace(1, 'a', SAFE), namespace(2, 'b', CUBIC), namespace(3, 'c', SAFE)]);
    expect(luiPatternVerdict(SAFE)).toBe('unchecked');

    await expect(checkSnapshotPatterns(first, logger)).resolves.toMatchObject({ checked: 2, flagged: 1 });
    expect(luiPatternVerdict(SAFE)).toBe('safe');
    expect(luiPatternVerdict(CUBIC)).toBe('vulnerable');

    // A refresh that changes nothing about patterns checks nothing.
    await expect(checkSnapshotPatterns(first, logger)).resolves.toEqual({ checked: 0, flagged: 0, ms: 0 });
    const second = buildSnapshot(2, [namespace(1, 'a', SAFE), namespace(2, 'b', CUBIC), namespace(4, 'd', ALSO_SAFE)]);
    await expect(checkSnapshotPatterns(second, logger)).resolves.toMatchObject({ checked: 1, flagged: 0 });
    expect(luiPatternVerdict(ALSO_SAFE)).toBe('safe');
  });

  it('lets a refresh arriving during a check wait for it without checking the pattern twice', async () => {
    const pattern = '^CHECKS-(\\w+)+!$';
    const snapshot = buildSnapshot(1, [namespace(5, 'e', pattern)]);
    const [first, second] = await Promise.all([checkSnapshotPatterns(snapshot, logger), checkSnapshotPatterns(snapshot, logger)]);
    expect([first.checked, second.checked]).toEqual([1, 0]);
    expect(luiPatternVerdict(pattern)).toBe('vulnerable');
  });
});
