/**
 * The ReDoS check of a snapshot's LUI patterns: each distinct pattern not judged yet in this process is
 * handed to the checker (lib/redos-check.ts, off the main thread) and its verdict recorded in core, which
 * from then on matches it with V8's engine when safe and with the linear-time one otherwise. A refresh
 * checks only the patterns it brings that were never seen; until its verdict arrives a pattern is matched
 * in linear time, so a request never waits for the checker and never meets an unchecked backtracking
 * pattern.
 */
import type { Logger } from '../lib/logger.js';
import { checkRegexForRedos } from '../lib/redos-check.js';
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
  /** Distinct patterns checked by this call (patterns judged before are not counted). */
  checked: number;
  /** Of those, the ones not found safe, which are matched in linear time (or not at all). */
  flagged: number;
  ms: number;
}

// Checks under way, so that a refresh arriving meanwhile waits for them instead of reporting them twice.
const inFlight = new Map<string, Promise<void>>();

async function checkPattern(pattern: string, prefixes: string[], logger: Logger): Promise<boolean> {
  const verdict = await checkRegexForRedos(luiPatternSource(pattern));
  recordLuiPatternVerdict(pattern, verdict.status);
  if (verdict.status === 'safe') return false;
  const { linearError } = inspectLuiPattern(pattern);
  const engine = luiPatternEngineFor(verdict.status, linearError);
  logger.warn(
    { prefixes, pattern, verdict, engine, ...(linearError ? { linearError } : {}) },
    engine === 'linear'
      ? 'LUI pattern may backtrack catastrophically; matched with the linear-time engine'
      : engine === 'none'
        ? 'LUI pattern backtracks catastrophically and has no linear-time equivalent; it matches no LUI until curated'
        : 'LUI pattern could not be checked and has no linear-time equivalent; matched by backtracking',
  );
  return true;
}

/** Checks the snapshot's unjudged patterns; resolves once every verdict is recorded. Never rejects. */
export async function checkSnapshotPatterns(snapshot: RegistrySnapshot, logger: Logger): Promise<LuiPatternCheckSummary> {
  const started = performance.now();
  const prefixesByPattern = new Map<string, string[]>();
  const earlier = new Set<Promise<void>>();
  for (const ns of snapshot.namespacesByPrefix.values()) {
    const { pattern } = ns;
    const prefixes = prefixesByPattern.get(pattern);
    if (prefixes) prefixes.push(ns.prefix);
    else if (luiPatternVerdict(pattern) === 'unchecked' && luiPatternError(pattern) === null) {
      const running = inFlight.get(pattern);
      if (running) earlier.add(running);
      else prefixesByPattern.set(pattern, [ns.prefix]);
    }
  }
  let flagged = 0;
  const mine = [...prefixesByPattern].map(([pattern, prefixes]) => {
    const done = checkPattern(pattern, prefixes, logger)
      .then((isFlagged) => {
        if (isFlagged) flagged++;
      })
      // A bug here must not leave a rejected promise behind; the pattern stays on the linear-time engine.
      .catch((error: unknown) => logger.error({ err: error, pattern }, 'LUI pattern check failed'))
      .finally(() => inFlight.delete(pattern));
    inFlight.set(pattern, done);
    return done;
  });
  await Promise.all([...mine, ...earlier]);
  if (mine.length === 0) return { checked: 0, flagged: 0, ms: 0 };
  const summary = { checked: mine.length, flagged, ms: Math.round(performance.now() - started) };
  logger.info(summary, 'LUI patterns checked for catastrophic backtracking');
  return summary;
}
