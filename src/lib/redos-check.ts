/**
 * Whether a regular expression can backtrack catastrophically (ReDoS), asked of `recheck`, a maintained
 * checker (automata analysis, with fuzzing for what automata cannot model). It runs off the main thread:
 * in its native agent process when the platform has one (recheck-linux-x64 and the like), otherwise in a
 * worker thread running its pure-JavaScript build. On the 530 distinct patterns of the public registry the
 * native agent takes about 4 s in all and the pure build about 35 s (one check can take seconds), so
 * callers never wait on the whole registry before serving; see resolver/lui-pattern-checks.ts.
 *
 * Verdicts are kept per regex source, so unchanged patterns are never checked twice in a process; a check
 * that did not finish (out of time, or the checker failed) decided nothing about the pattern and is not kept:
 * the next ask checks again, which under load is what lets a busy start's run-outs get their verdict later.
 */
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import type * as Recheck from 'recheck';
import { loadOnFirstUse } from './warm-up.js';

// recheck's checker is a large compiled bundle (about 135 ms to load): loaded on the first check, not by every
// process (and every test file) that imports this module and never checks a pattern. A serving process loads
// it at warm-up, before it listens (lib/warm-up.ts): loading holds the event loop for ~70–135 ms, which would
// otherwise fall on the first request that has a pattern checked (bench:hostile saw a registration hold the
// registry's loop 80 ms that way).
const loadRecheck = loadOnFirstUse((): Promise<typeof Recheck> => import('recheck'));

/**
 * The checker and its version, stored beside each kept verdict (db/redos-verdicts.ts): a verdict of another
 * version is asked again, since a newer checker may judge differently. Read from its package.json, which
 * costs nothing like loading the checker.
 */
export const REDOS_CHECKER = `recheck ${(createRequire(import.meta.url)('recheck/package.json') as { version: string }).version}`;

/** Time one check may take before its verdict is `unknown`. */
export const REDOS_CHECK_TIMEOUT_MS = 5000;

// Checks at once: more would let checks of one registry load eat each other's time bound.
const CONCURRENCY = 2;
// The registry holds a few hundred distinct patterns; the rest are registration requests' patterns.
const CACHED_VERDICTS = 5000;
// Attack strings can be hundreds of thousands of characters; messages quote a prefix.
const ATTACK_QUOTE_LENGTH = 120;

export type RedosVerdict =
  | { status: 'safe' }
  | {
      status: 'vulnerable';
      complexity: 'polynomial' | 'exponential';
      /** Degree of the polynomial (2 = quadratic); null for exponential. */
      degree: number | null;
      /** An input that makes it slow, as recheck describes it (`'a' + 'b'.repeat(30) + '!'`). */
      attack: string;
      /** The parts of the source the backtracking comes from. */
      hotspots: string[];
    }
  | {
      status: 'unknown';
      reason: string;
      /**
       * True when the check ran out of time or the checker failed: not the pattern's doing, and another check
       * (with more time, or on a less busy machine) may well decide. False when recheck cannot judge it.
       */
      unfinished: boolean;
    };

/** A check's answer, shared by every ask meanwhile, and the verdict itself once it is decided. */
interface CachedVerdict {
  answer: Promise<RedosVerdict>;
  decided?: RedosVerdict;
}

const verdicts = new LRUCache<string, CachedVerdict>({ max: CACHED_VERDICTS });

/** Whether `verdict` says something about the pattern (an unfinished check said nothing). */
export function isDecided(verdict: RedosVerdict): boolean {
  return !(verdict.status === 'unknown' && verdict.unfinished);
}

let running = 0;
const waiting: (() => void)[] = [];

async function withSlot<T>(task: () => Promise<T>): Promise<T> {
  // A finishing task hands its slot to the next waiter directly, so the count never overshoots.
  if (running >= CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await task();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function quoteAttack(attack: { pattern?: string; string: string }): string {
  const text = attack.pattern ?? JSON.stringify(attack.string);
  return text.length > ATTACK_QUOTE_LENGTH ? `${text.slice(0, ATTACK_QUOTE_LENGTH)}…` : text;
}

// recheck starts its agent process on the first check, and two first checks at once would start two.
let firstCheck: Promise<unknown> | null = null;

async function runCheck(source: string, flags: string, timeoutMs: number): Promise<RedosVerdict> {
  const diagnostics = await withSlot(async () => {
    const { check } = await loadRecheck();
    if (firstCheck === null) {
      const started = check(source, flags, { timeout: timeoutMs });
      firstCheck = started.catch(() => undefined);
      return started;
    }
    await firstCheck;
    return check(source, flags, { timeout: timeoutMs });
  });
  if (diagnostics.status === 'safe') return { status: 'safe' };
  if (diagnostics.status === 'vulnerable') {
    const { complexity } = diagnostics;
    const hotspots = [
      ...new Set(diagnostics.hotspot.filter((h) => h.temperature === 'heat').map((h) => source.slice(h.start, h.end))),
    ];
    return {
      status: 'vulnerable',
      complexity: complexity.type,
      degree: complexity.type === 'polynomial' ? complexity.degree : null,
      attack: quoteAttack(diagnostics.attack),
      hotspots,
    };
  }
  const { error } = diagnostics;
  if (error.kind === 'timeout') return { status: 'unknown', reason: `the check did not finish within ${timeoutMs} ms`, unfinished: true };
  return { status: 'unknown', reason: 'message' in error ? error.message : error.kind, unfinished: false };
}

/**
 * recheck's verdict on `source` (with `flags`), cached per source and flags. Never rejects: a checker that
 * fails answers `unknown`, which callers treat as not known to be safe. A check under way is shared by
 * every ask meanwhile, whatever `timeoutMs` each gives.
 */
export function checkRegexForRedos(source: string, flags = '', timeoutMs = REDOS_CHECK_TIMEOUT_MS): Promise<RedosVerdict> {
  const key = `${flags}/${source}`;
  let cached = verdicts.get(key);
  if (cached === undefined) {
    const checking: CachedVerdict = {
      answer: runCheck(source, flags, timeoutMs)
        // The agent process died, say: not the pattern's fault.
        .catch((error: unknown): RedosVerdict => ({
          status: 'unknown',
          reason: `the checker failed: ${error instanceof Error ? error.message : String(error)}`,
          unfinished: true,
        }))
        .then((answer) => {
          if (isDecided(answer)) checking.decided = answer;
          // Nothing was decided: ask again next time (unless a newer check has taken the place meanwhile).
          else if (verdicts.get(key) === checking) verdicts.delete(key);
          return answer;
        }),
    };
    cached = checking;
    verdicts.set(key, cached);
  }
  return cached.answer;
}

/**
 * Takes a verdict decided earlier, by this same checker (REDOS_CHECKER), in another process or before a
 * restart (db/redos-verdicts.ts keeps them in Postgres): the next ask answers it without running the checker.
 * An unfinished verdict is ignored (it decided nothing).
 */
export function rememberRedosVerdict(source: string, flags: string, verdict: RedosVerdict): void {
  const key = `${flags}/${source}`;
  if (!isDecided(verdict) || verdicts.get(key)?.decided) return;
  verdicts.set(key, { answer: Promise.resolve(verdict), decided: verdict });
}

/** The verdict on `source` decided in this process (checked, or remembered), if there is one. */
export function decidedRedosVerdict(source: string, flags = ''): RedosVerdict | undefined {
  return verdicts.get(`${flags}/${source}`)?.decided;
}

type Vulnerable = Extract<RedosVerdict, { status: 'vulnerable' }>;

/** `quadratic`, `cubic`, `polynomial (degree 4)` or `exponential`, for messages. */
export function describeComplexity(verdict: Vulnerable): string {
  if (verdict.complexity === 'exponential') return 'exponential';
  if (verdict.degree === 2) return 'quadratic';
  if (verdict.degree === 3) return 'cubic';
  return `polynomial (degree ${verdict.degree ?? '?'})`;
}

/** The parts the backtracking comes from, for messages: `its parts '\w', '\d'`. */
export function describeHotspots(verdict: Vulnerable): string {
  return verdict.hotspots.length > 0 ? `its parts ${verdict.hotspots.map((h) => `'${h}'`).join(', ')}` : 'parts of it';
}

export const REWRITE_ADVICE =
  "Rewrite it so that each character can be matched in only one way (for example '[A-Z]+\\d+' rather than '\\w+\\d+')";
