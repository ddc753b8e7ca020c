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
 * With `recallFrom`, a pattern some process judged before with the same checker version (kept in Postgres,
 * db/redos-verdicts.ts) takes that verdict without a check; with `keepIn`, what this call's checks decide is
 * kept there for the next start. A resolver start on the public registry then reads ~530 verdicts instead of
 * spending seconds of CPU checking them again (in every process of a cluster, at every restart).
 *
 * The log: one summary line at info per call that judged something; what each flagged pattern is and the
 * engine it gets, at debug (curators see the same per namespace as a `pattern-backtracking` warning).
 */
import type { Knex } from 'knex';
import type { Logger } from '../lib/logger.js';
import { checkRegexForRedos, isDecided, REDOS_CHECK_TIMEOUT_MS, type RedosVerdict } from '../lib/redos-check.js';
import { keepRedosVerdicts, recallRedosVerdicts, type KeptVerdict } from '../db/redos-verdicts.js';
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
  /**
   * Distinct patterns given a verdict by this call, by the checker or from the kept verdicts (patterns judged
   * before in this process are not counted).
   */
  checked: number;
  /** Of those, the ones whose verdict was kept in Postgres (`recallFrom`); absent when there was nothing to judge. */
  recalled?: number;
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
  /** Where verdicts judged before are read (a replica will do). */
  recallFrom?: Knex;
  /** Where the verdicts this call's checks decide are kept (the primary). */
  keepIn?: Knex;
}

/** Run-outs after which a pattern is recorded as `unknown` rather than checked again (5 + 10 + 20 + 40 s). */
const UNFINISHED_LIMIT = 4;

// Checks under way, so that a refresh arriving meanwhile waits for them instead of reporting them twice.
const inFlight = new Map<string, Promise<void>>();
// How many checks of each pattern ran out of time so far.
const runOuts = new Map<string, number>();

type Outcome = 'safe' | 'flagged' | 'unfinished';

/** The checker's verdict on `pattern`, or null when its check ran out of time and it is to be asked again. */
async function checkPattern(pattern: string, prefixes: string[], logger: Logger, firstTimeoutMs: number): Promise<RedosVerdict | null> {
  const ranOut = runOuts.get(pattern) ?? 0;
  const timeoutMs = ranOut === 0 ? firstTimeoutMs : REDOS_CHECK_TIMEOUT_MS * 2 ** ranOut;
  const verdict = await checkRegexForRedos(luiPatternSource(pattern), '', timeoutMs);
  if (verdict.status === 'unknown' && verdict.unfinished && ranOut + 1 < UNFINISHED_LIMIT) {
    runOuts.set(pattern, ranOut + 1);
    logger.debug({ prefixes, pattern, reason: verdict.reason }, 'LUI pattern check did not finish; matched in linear time until checked again');
    return null;
  }
  runOuts.delete(pattern);
  return verdict;
}

/** Records `verdict` in core, which picks the engine from it. */
function judge(pattern: string, prefixes: string[], verdict: RedosVerdict, logger: Logger): Exclude<Outcome, 'unfinished'> {
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

/** The kept verdicts on `patterns`' sources; none when Postgres cannot say (then the checker is asked). */
async function recall(db: Knex | undefined, patterns: string[], logger: Logger): Promise<Map<string, RedosVerdict>> {
  if (db === undefined || patterns.length === 0) return new Map();
  try {
    return await recallRedosVerdicts(db, patterns.map(luiPatternSource));
  } catch (error) {
    logger.warn({ err: error }, 'cannot read the kept LUI pattern verdicts from Postgres; checking the patterns');
    return new Map();
  }
}

/** Keeps what this call's checks decided; a failure only means the next start checks them again. */
async function keep(db: Knex | undefined, verdicts: KeptVerdict[], logger: Logger): Promise<void> {
  if (db === undefined || verdicts.length === 0) return;
  try {
    await keepRedosVerdicts(db, verdicts);
  } catch (error) {
    logger.warn({ err: error }, 'cannot keep the LUI pattern verdicts in Postgres; the next start checks them again');
  }
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
  let recalled = 0;
  const decided: KeptVerdict[] = [];
  const kept = recall(options.recallFrom, [...prefixesByPattern.keys()], logger);
  const mine = [...prefixesByPattern].map(([pattern, prefixes]) => {
    const done = kept
      .then(async (known) => {
        const source = luiPatternSource(pattern);
        const knownVerdict = known.get(source);
        if (knownVerdict) recalled++;
        const verdict = knownVerdict ?? (await checkPattern(pattern, prefixes, logger, options.timeoutMs ?? REDOS_CHECK_TIMEOUT_MS));
        if (verdict === null) return;
        if (!knownVerdict && isDecided(verdict)) decided.push({ source, flags: '', verdict });
        counts[judge(pattern, prefixes, verdict, logger)]++;
      })
      // A bug here must not leave a rejected promise behind; the pattern stays on the linear-time engine.
      .catch((error: unknown) => logger.error({ err: error, pattern }, 'LUI pattern check failed'))
      .finally(() => inFlight.delete(pattern));
    inFlight.set(pattern, done);
    return done;
  });
  await Promise.all([...mine, ...earlier.values()]);
  await keep(options.keepIn, decided, logger);
  // Still unjudged: the check ran out of time (or failed), whichever call ran it.
  const unfinished = [...prefixesByPattern.keys(), ...earlier.keys()].filter((pattern) => luiPatternVerdict(pattern) === 'unchecked').length;
  if (mine.length === 0) return { checked: 0, flagged: 0, unfinished, ms: 0 };
  const summary = {
    checked: counts.safe + counts.flagged,
    recalled,
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
