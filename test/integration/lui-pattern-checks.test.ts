/**
 * The ReDoS check of a snapshot's LUI patterns (resolver/lui-pattern-checks.ts), with the real checker:
 * verdicts land in core and decide the engine, a pattern is checked once per process whatever the number
 * of snapshots (and namespaces) that carry it, a check that runs out of time is asked again, and verdicts kept
 * in Postgres are taken instead of checks. Running out of time is made certain, not raced, by a time of 0 for
 * the first check.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { inspectLuiPattern, luiPatternEngineFor, luiPatternSource, luiPatternVerdict, matchesLuiPattern } from '../../src/core/lui-pattern.js';
import { buildSnapshot, type NamespaceEntry } from '../../src/core/registry-snapshot.js';
import { keepRedosVerdicts } from '../../src/db/redos-verdicts.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { REDOS_CHECKER, type RedosVerdict } from '../../src/lib/redos-check.js';
import { checkSnapshotPatterns } from '../../src/resolver/lui-pattern-checks.js';
import { SnapshotStore } from '../../src/resolver/snapshot-store.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { waitFor } from '../support/wait.js';
import { aNamespace } from '../factories/snapshot.factory.js';

const logger = createLogger('silent', 'test');

interface LogLine {
  level: number;
  msg: string;
  prefixes?: string[];
}

/** A logger at debug that keeps its lines, parsed. */
function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      lines.push(JSON.parse(chunk.toString()) as LogLine);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines };
}
const INFO = 30;

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
    await expect(checkSnapshotPatterns(first, logger)).resolves.toEqual({ checked: 0, flagged: 0, unfinished: 0, ms: 0 });
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

describe('a pattern whose check did not finish', () => {
  it('stays unjudged and matched in linear time, is not counted as flagged, and is counted by its real verdict when asked again', async () => {
    const pattern = '^\\w+_?\\d+(.\\d+)?(RUNOUT)?$';
    const snapshot = buildSnapshot(1, [namespace(6, 'f', pattern), namespace(7, 'g', pattern)]);

    await expect(checkSnapshotPatterns(snapshot, logger, { timeoutMs: 0 })).resolves.toMatchObject({ checked: 0, flagged: 0, unfinished: 1 });
    expect(luiPatternVerdict(pattern)).toBe('unchecked');
    expect(luiPatternEngineFor(luiPatternVerdict(pattern), inspectLuiPattern(pattern).linearError)).toBe('linear');
    expect(matchesLuiPattern(pattern, 'CAA71118.1')).toBe(true);

    // Asked again (the snapshot store does so at its periodic check): checked this time, and flagged.
    await expect(checkSnapshotPatterns(snapshot, logger)).resolves.toMatchObject({ checked: 1, flagged: 1, unfinished: 0 });
    expect(luiPatternVerdict(pattern)).toBe('vulnerable');
  });
});

describe('the log of a snapshot check', () => {
  it('says what was checked in one line at info, and names each flagged pattern at debug only', async () => {
    const flagged = ['^\\w+(\\-)?\\w+(LOGGED)$', '^(\\d+)+LOGGED$'];
    const safe = ['^LOGGED\\d{4}$', '^LOGGED[a-z]+$'];
    const snapshot = buildSnapshot(1, [...flagged, ...safe].map((pattern, i) => namespace(10 + i, `log${i}`, pattern)));
    const { logger: recording, lines } = recordingLogger();

    await expect(checkSnapshotPatterns(snapshot, recording)).resolves.toMatchObject({ checked: 4, flagged: 2, unfinished: 0 });
    const atInfo = lines.filter((line) => line.level >= INFO);
    expect(atInfo).toEqual([expect.objectContaining({ level: INFO, checked: 4, flagged: 2, unfinished: 0 })]);
    const perPattern = lines.filter((line) => line.level < INFO && line.prefixes !== undefined);
    expect(perPattern.map((line) => line.prefixes)).toEqual(expect.arrayContaining([['log0'], ['log1']]));
    expect(perPattern).toHaveLength(2);
  });
});

describe('the resolver’s snapshot store', () => {
  let t: AreaStack;
  let store: SnapshotStore | undefined;
  beforeAll(async () => {
    t = await startStack('lui_pattern_checks');
  });
  afterAll(async () => {
    await store?.stop();
    await t?.close();
  });

  it('checks again, at its periodic check, the patterns whose first check ran out of time', async () => {
    // The sample registry's verdicts, kept by its import, would spare the store its checks.
    await t.db('redos_verdicts').delete();
    store = new SnapshotStore({ db: t.db, databaseUrl: t.url, logger, checkIntervalMs: 100, patternCheckTimeoutMs: 0 });
    await store.start();
    const patterns = [...new Set([...store.snapshot.namespacesByPrefix.values()].map((ns) => ns.pattern))];
    const first = await store.patternChecks;
    // With no time for it, the first check judges nothing. (On a busy machine the 100 ms periodic check may
    // already have begun by the time this reads the result, and a pattern it has under way is not counted
    // again: hence at most, not exactly, every pattern.)
    expect(first).toMatchObject({ checked: 0, flagged: 0 });
    expect(first.unfinished).toBeGreaterThan(0);
    expect(first.unfinished).toBeLessThanOrEqual(patterns.length);

    // No registry change: what brings the verdicts is the store asking again.
    await waitFor(() => patterns.every((pattern) => luiPatternVerdict(pattern) !== 'unchecked'), { timeoutMs: 60_000, what: 'every sample pattern judged' });
    expect(patterns.filter((pattern) => luiPatternVerdict(pattern) === 'unknown')).toEqual([]);
    // What its checks decided is kept for the next start.
    await waitFor(async () => Number((await t.db('redos_verdicts').count({ n: '*' }))[0]!.n) === patterns.length, {
      timeoutMs: 30_000,
      what: 'the sample patterns’ verdicts kept',
    });
  }, 90_000);

  it('takes the verdicts kept in Postgres by this checker version instead of checking, and keeps those it checks', async () => {
    const KEPT = '^CHECKSKEPT\\d{2}$';
    const FRESH = '^CHECKSFRESH\\d{3}$';
    const OLDER = '^CHECKSOLDER\\d{4}$';
    // Each of them is safe: a verdict saying otherwise can only have come from Postgres.
    const vulnerable: RedosVerdict = { status: 'vulnerable', complexity: 'exponential', degree: null, attack: "'a'.repeat(30)", hotspots: [] };
    await keepRedosVerdicts(t.db, [
      { source: luiPatternSource(KEPT), flags: '', verdict: vulnerable },
      { source: luiPatternSource(OLDER), flags: '', verdict: vulnerable },
    ]);
    // A verdict of another version of the checker is not trusted.
    await t.db('redos_verdicts').where({ source: luiPatternSource(OLDER) }).update({ checker: 'recheck 0.0.1' });
    const snapshot = buildSnapshot(1, [namespace(1, 'kept', KEPT), namespace(2, 'fresh', FRESH), namespace(3, 'older', OLDER)]);

    const summary = await checkSnapshotPatterns(snapshot, logger, { recallFrom: t.db, keepIn: t.db });

    expect(summary).toMatchObject({ checked: 3, recalled: 1, flagged: 1, unfinished: 0 });
    expect([KEPT, FRESH, OLDER].map(luiPatternVerdict)).toEqual(['vulnerable', 'safe', 'safe']);
    const kept = await t.db('redos_verdicts').select('source', 'checker', 'verdict').whereIn('source', [FRESH, OLDER].map(luiPatternSource)).orderBy('source');
    expect(kept).toEqual(
      [FRESH, OLDER].map((pattern) => ({ source: luiPatternSource(pattern), checker: REDOS_CHECKER, verdict: { status: 'safe' } })).sort((a, b) => (a.source < b.source ? -1 : 1)),
    );
  });
});
