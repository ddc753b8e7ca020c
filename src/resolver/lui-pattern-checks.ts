/**
 * The ReDoS check of a snapshot's LUI patterns: each distinct pattern not judged yet in this process is
 * handed to the checker (lib/redos-check.ts, off the main thread) and its verdict recorded in core, which
 * from then on matches it with V8's engine when safe and with the linear-time one otherwise. A refresh
 * checks only the patterns it brings that were never judged; until its verdict arrives a pattern is matched
 * in linear time, so a request never waits for the checker and never meets an unchecked backtracking
 * pattern.
 *
 * A check that runs out of time (a busy start: the checker shares the CPU with the snapshot load and the
 * first requests) decided nothing: the pattern stays unjudged, matched in linear time as before, and the next
 * call checks it again with twice the time, up to UNFINISHED_LIMIT run-outs, after which it is recorded as
 * `unknown` (what recheck cannot judge), which keeps the linear-time engine. The snapshot store calls again
 * at each periodic check.
 *
 * The log: one summary line at info per call that judged something; what each flagged pattern is and the
 * engine it gets, at debug (curators see the same per namespace as a `pattern-backtracking` warning).
 */
import type { Logger } from '../lib/logger.js';
import { checkRegexForRedos, REDOS_CHECK_TIMEOUT_MS } from '../lib/redos-check.js';
import type { RegistrySnapshot } from '../core/registry-snapshot.js';
import {
  luiPatternEngineFor,
  luiPatternError,
  inspectLuiPattern,
  luiPatternSource,
  luiPatternVerdict,
  recordLuiPatternVerdict,
} from '../core/lui-pattern.js';

export interface LuiPatternCheckSummary {
  /** Distinct patterns given a verdict by this call (patterns judged before are not counted). */
  checked: number;
  /** Of those, the ones not found safe, which are matched in linear time (or not at all). */
  flagged: number;
  /**
   * The snapshot's patterns whose check (this call's, or one under way it waited for) did not finish: still
   * unjudged (matched in linear time), checked again by the next call.
   */
  unfinished: number;
  ms: number;
}

export interface LuiPatternCheckOptions {
  /** The checker's time for a pattern's first check (retries get REDOS_CHECK_TIMEOUT_MS doubled per run-out). */
  timeoutMs?: number;
}

/** Run-outs after which a pattern is recorded as `unknown` rather than checked again (5 + 10 + 20 + 40 s). */
const UNFINISHED_LIMIT = 4;

// Checks under way, so that a refresh arriving meanwhile waits for them instead of reporting them twice.
const inFlight = new Map<string, Promise<void>>();
// How many checks of each pattern ran out of time so far.
const runOuts = new Map<string, number>();

type Outcome = 'safe' | 'flagged' | 'unfinished';

async function checkPattern(pattern: string, prefixes: string[], logger: Logger, firstTimeoutMs: number): Promise<Outcome> {
  const ranOut = runOuts.get(pattern) ?? 0;
  const timeoutMs = ranOut === 0 ? firstTimeoutMs : REDOS_CHECK_TIMEOUT_MS * 2 ** ranOut;
  const verdict = await checkRegexForRedos(luiPatternSource(pattern), '', timeoutMs);
  if (verdict.status === 'unknown' && verdict.unfinished && ranOut + 1 < UNFINISHED_LIMIT) {
    runOuts.set(pattern, ranOut + 1);
    logger.debug({ prefixes, pattern, reason: verdict.reason }, 'LUI pattern check did not finish; matched in linear time until checked again');
    return 'unfinished';
  }
  runOuts.delete(pattern);
  recordLuiPatternVerdict(pattern, verdict.status);
  if (verdict.status === 'safe') return 'safe';
  const { linearError } = inspectLuiPattern(pattern);
  const engine = luiPatternEngineFor(verdict.status, linearError);
  logger.debug(
    { prefixes, pattern, verdict, engine, ...(linearError ? { linearError } : {}) },
    engine === 'linear'
      ? 'LUI pattern may backtrack catastrophically; matched with the linear-time engine'
      : engine === 'none'
        ? 'LUI pattern backtracks catastrophically and has no linear-time equivalent; it matches no LUI until curated'
        : 'LUI pattern could not be checked and has no linear-time equivalent; matched by backtracking',
  );
  return 'flagged';
}

/** Checks the snapshot's unjudged patterns; resolves once every check is done. Never rejects. */
export async function checkSnapshotPatterns(
  snapshot: RegistrySnapshot,
  logger: Logger,
  options: LuiPatternCheckOptions = {},
): Promise<LuiPatternCheckSummary> {
  const started = performance.now();
  const prefixesByPattern = new Map<string, string[]>();
  // Patterns another call is checking: waited for, and counted when their check does not finish either.
  const earlier = new Map<string, Promise<void>>();
  for (const ns of snapshot.namespacesByPrefix.values()) {
    const { pattern } = ns;
    const prefixes = prefixesByPattern.get(pattern);
    if (prefixes) prefixes.push(ns.prefix);
    else if (luiPatternVerdict(pattern) === 'unchecked' && luiPatternError(pattern) === null) {
      const running = inFlight.get(pattern);
      if (running) earlier.set(pattern, running);
      else prefixesByPattern.set(pattern, [ns.prefix]);
    }
  }
  const counts: Record<Exclude<Outcome, 'unfinished'>, number> = { safe: 0, flagged: 0 };
  const mine = [...prefixesByPattern].map(([pattern, prefixes]) => {
    const done = checkPattern(pattern, prefixes, logger, options.timeoutMs ?? REDOS_CHECK_TIMEOUT_MS)
      .then((outcome) => {
        if (outcome !== 'unfinished') counts[outcome]++;
      })
      // A bug here must not leave a rejected promise behind; the pattern stays on the linear-time engine.
      .catch((error: unknown) => logger.error({ err: error, pattern }, 'LUI pattern check failed'))
      .finally(() => inFlight.delete(pattern));
    inFlight.set(pattern, done);
    return done;
  });
  await Promise.all([...mine, ...earlier.values()]);
  // Still unjudged: the check ran out of time (or failed), whichever call ran it.
  const unfinished = [...prefixesByPattern.keys(), ...earlier.keys()].filter((pattern) => luiPatternVerdict(pattern) === 'unchecked').length;
  if (mine.length === 0) return { checked: 0, flagged: 0, unfinished, ms: 0 };
  const summary = {
    checked: counts.safe + counts.flagged,
    flagged: counts.flagged,
    unfinished,
    ms: Math.round(performance.now() - started),
  };
  if (summary.checked > 0) {
    logger.info(
      summary,
      summary.flagged > 0
        ? 'LUI patterns checked for catastrophic backtracking (LOG_LEVEL=debug lists the flagged ones and their engine)'
        : 'LUI patterns checked for catastrophic backtracking',
    );
  } else logger.debug(summary, 'LUI pattern checks did not finish; they are asked again later');
  return summary;
}
