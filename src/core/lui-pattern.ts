/**
 * Local-ID validation against a namespace's pattern, with the semantics of Java's `String.matches`.
 *
 * Registry patterns are Java regexes. Wrapping them as `^(?:p)$` without the `u` flag reproduces Java's
 * whole-string match on every pattern of the public registry: the `u` flag rejects identity escapes such as
 * `\:` that the registry uses, and the unwrapped pattern gets alternations (`^(a)|(b)$`) and unanchored
 * patterns (`[A-Za-z_0-9]*`) wrong.
 */

/**
 * Longest LUI ever tested. Registry patterns are not written with hostile input in mind, and some backtrack
 * badly; capping the input bounds the time one request can spend in a regex. No real identifier comes close.
 */
export const MAX_TESTED_LUI_LENGTH = 2048;

interface CompiledLuiPattern {
  readonly regex: RegExp | null;
  /** Why the pattern does not compile as a JavaScript regex; null when it does. */
  readonly error: string | null;
}

// Keyed by the pattern text, so every snapshot and the parser share one compilation per distinct pattern.
// The set of patterns comes from the registry, not from requests, so it stays small.
const compiledPatterns = new Map<string, CompiledLuiPattern>();

function compileLuiPattern(pattern: string): CompiledLuiPattern {
  let compiled = compiledPatterns.get(pattern);
  if (compiled === undefined) {
    try {
      compiled = { regex: new RegExp('^(?:' + pattern + ')$'), error: null };
    } catch (err) {
      // The reference answers 500 for a pattern Java cannot compile; a broken registry entry must not take
      // resolution down, so it simply matches nothing.
      compiled = { regex: null, error: err instanceof Error ? err.message : String(err) };
    }
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

/** Whole-string match of `lui` against a registry pattern; false for a pattern that does not compile. */
export function matchesLuiPattern(pattern: string, lui: string): boolean {
  if (lui.length > MAX_TESTED_LUI_LENGTH) return false;
  const { regex } = compileLuiPattern(pattern);
  return regex !== null && regex.test(lui);
}

/**
 * Why a registry pattern cannot be used (it then matches no LUI), or null when it compiles. Lets the
 * snapshot loader and curation report broken patterns instead of resolution failing silently.
 */
export function luiPatternError(pattern: string): string | null {
  return compileLuiPattern(pattern).error;
}
