/**
 * Local-ID validation against a namespace's pattern, with the semantics of Java's `String.matches`.
 *
 * Registry patterns are Java regexes. Wrapping them as `^(?:p)$` without the `u` flag reproduces Java's
 * whole-string match on every pattern of the public registry: the `u` flag rejects identity escapes such as
 * `\:` that the registry uses, and the unwrapped pattern gets alternations (`^(a)|(b)$`) and unanchored
 * patterns (`[A-Za-z_0-9]*`) wrong.
 *
 * Two engines: V8's backtracking RegExp, the fastest, and for the patterns where backtracking can take
 * super-linear time on hostile input (ncbiprotein's `^\w+_?\d+(.\d+)?$` spends seconds on 2,000 characters,
 * blocking every other request), a linear-time engine with the same meaning (linear-lui-pattern.ts). Which
 * pattern needs which is decided by a ReDoS checker outside core (it runs off the main thread); its verdicts
 * are recorded here with `recordLuiPatternVerdict`. Until a pattern has a verdict it is treated as unsafe.
 */
import { compileLinearMatcher, type LinearMatcher } from './linear-lui-pattern.js';

/**
 * Longest LUI ever tested. Registry patterns are not written with hostile input in mind, and some backtrack
 * badly; capping the input bounds the time one request can spend in a regex. No real identifier comes close.
 */
export const MAX_TESTED_LUI_LENGTH = 2048;

/**
 * What the ReDoS checker said about a pattern: `vulnerable` (super-linear backtracking on some input),
 * `unknown` (it could not tell in its time bound) or `safe`; `unchecked` until it has answered.
 */
export type LuiPatternVerdict = 'unchecked' | 'safe' | 'vulnerable' | 'unknown';

/** The engine a pattern is matched with: `none` when it matches no LUI at all. */
export type LuiPatternEngine = 'backtracking' | 'linear' | 'none';

interface CompiledLuiPattern {
  readonly source: string;
  readonly regex: RegExp | null;
  /** Why the pattern does not compile as a JavaScript regex; null when it does. */
  readonly error: string | null;
  verdict: LuiPatternVerdict;
  /** Compiled on first need; null when the pattern has no linear-time equivalent. */
  linear: LinearMatcher | null | undefined;
}

// Keyed by the pattern text, so every snapshot and the parser share one compilation (and one verdict) per
// distinct pattern. The set of patterns comes from the registry, not from requests, so it stays small.
const compiledPatterns = new Map<string, CompiledLuiPattern>();

/** The JavaScript regex source a pattern is compiled from (what a ReDoS checker must look at). */
export function luiPatternSource(pattern: string): string {
  return '^(?:' + pattern + ')$';
}

function compileLuiPattern(pattern: string): CompiledLuiPattern {
  let compiled = compiledPatterns.get(pattern);
  if (compiled === undefined) {
    const source = luiPatternSource(pattern);
    let regex: RegExp | null = null;
    let error: string | null = null;
    try {
      regex = new RegExp(source);
    } catch (err) {
      // The reference answers 500 for a pattern Java cannot compile; a broken registry entry must not take
      // resolution down, so it simply matches nothing.
      error = err instanceof Error ? err.message : String(err);
    }
    compiled = { source, regex, error, verdict: 'unchecked', linear: undefined };
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

function linearMatcherOf(compiled: CompiledLuiPattern): LinearMatcher | null {
  if (compiled.linear === undefined) {
    const matcher = compileLinearMatcher(compiled.source);
    compiled.linear = 'error' in matcher ? null : matcher;
  }
  return compiled.linear;
}

/**
 * The engine the resolver matches a pattern with, given the checker's verdict and whether the pattern has a
 * linear-time equivalent (`linearError` null). Shared with the registry area, which reports it to curators.
 */
export function luiPatternEngineFor(verdict: LuiPatternVerdict, linearError: string | null): LuiPatternEngine {
  if (verdict === 'safe') return 'backtracking';
  if (linearError === null) return 'linear';
  // No linear-time equivalent (lookarounds, back references): a pattern known to backtrack catastrophically
  // is not run at all, so that no registry entry can stall the resolver. One the checker could not judge,
  // or has not judged yet, keeps the backtracking engine rather than breaking its namespace on a guess.
  return verdict === 'vulnerable' ? 'none' : 'backtracking';
}

/** Whole-string match of `lui` against a registry pattern; false for a pattern that does not compile. */
export function matchesLuiPattern(pattern: string, lui: string): boolean {
  if (lui.length > MAX_TESTED_LUI_LENGTH) return false;
  const compiled = compileLuiPattern(pattern);
  const { regex } = compiled;
  if (regex === null) return false;
  // The hot path: every pattern the checker found safe keeps V8's engine.
  if (compiled.verdict === 'safe') return regex.test(lui);
  const linear = linearMatcherOf(compiled);
  if (linear !== null) return linear.test(lui);
  return compiled.verdict !== 'vulnerable' && regex.test(lui);
}

/**
 * Why a registry pattern cannot be used (it then matches no LUI), or null when it compiles. Lets the
 * snapshot loader and curation report broken patterns instead of resolution failing silently.
 */
export function luiPatternError(pattern: string): string | null {
  return compileLuiPattern(pattern).error;
}

/** Records the ReDoS checker's verdict on a pattern; every later match uses the engine it calls for. */
export function recordLuiPatternVerdict(pattern: string, verdict: Exclude<LuiPatternVerdict, 'unchecked'>): void {
  const compiled = compileLuiPattern(pattern);
  compiled.verdict = verdict;
  // The linear matcher of a pattern now known to be safe is garbage.
  if (verdict === 'safe') compiled.linear = undefined;
}

export function luiPatternVerdict(pattern: string): LuiPatternVerdict {
  return compiledPatterns.get(pattern)?.verdict ?? 'unchecked';
}

/**
 * Whether `pattern` compiles (`error` null) and whether it has a linear-time equivalent (`linearError` null),
 * without caching anything: registration and curation ask this of patterns that are not in the registry.
 */
export function inspectLuiPattern(pattern: string): { error: string | null; linearError: string | null } {
  const source = luiPatternSource(pattern);
  try {
    new RegExp(source);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err), linearError: null };
  }
  const linear = compileLinearMatcher(source);
  return { error: null, linearError: 'error' in linear ? linear.error : null };
}
