/**
 * The ID pattern of a prefix request must not backtrack catastrophically: the resolver matches every
 * requested LUI against it, and a pattern such as ncbiprotein's `^\w+_?\d+(.\d+)?$` spends seconds on a
 * 2,000-character LUI while every other request waits. The pattern is judged as the resolver compiles it
 * (lui-pattern.ts) by the ReDoS checker (lib/redos-check.ts, off the main thread, time-bounded), before the
 * worker-thread test of RegexSyntax, which would otherwise spend its whole time bound on such a pattern.
 *
 * Refused: a pattern the checker finds vulnerable, and one it cannot judge in time that also has no
 * linear-time equivalent (the resolver would have to backtrack on it). A pattern it cannot judge but that
 * has one passes: the resolver matches it in linear time.
 */
import { checkRegexForRedos, describeComplexity, describeHotspots, REWRITE_ADVICE, type RedosVerdict } from '../../../lib/redos-check.js';
import { inspectLuiPattern, luiPatternSource } from '../../../core/lui-pattern.js';
import { translateJavaRegex } from '../../../core/java-regex.js';
import type { Validator } from './validation-context.js';

/** The refusal message for a vulnerable pattern. */
function vulnerablePatternMessage(label: string, verdict: Extract<RedosVerdict, { status: 'vulnerable' }>): string {
  return (
    `${label} can backtrack catastrophically: rejecting some identifiers takes ${describeComplexity(verdict)} time, ` +
    `for example ${verdict.attack}, because ${describeHotspots(verdict)} can match the same characters in more than one way. ` +
    REWRITE_ADVICE
  );
}

function compilesAsJavaScript(pattern: string): boolean {
  try {
    new RegExp(luiPatternSource(pattern));
    return true;
  } catch {
    return false;
  }
}

export const cannotBacktrackCatastrophically: Validator = async (value, { label }) => {
  // A pattern that does not compile is RegexSyntax's to report, with the Java dialect's message.
  if ('error' in translateJavaRegex(value)) return null;
  // The resolver cannot run a pattern V8 refuses at all, so it cannot stall it either.
  if (!compilesAsJavaScript(value)) return null;
  const verdict = await checkRegexForRedos(luiPatternSource(value));
  if (verdict.status === 'vulnerable') return vulnerablePatternMessage(label, verdict);
  if (verdict.status === 'unknown') {
    // Only here: compiling the linear-time equivalent costs about 0.3 ms, per request (nothing is cached for
    // patterns that are not in the registry), which halved the validator's throughput when done for all.
    const { linearError } = inspectLuiPattern(value);
    if (linearError !== null) return `${label} could not be checked for catastrophic backtracking (${verdict.reason}), and ${linearError}; simplify it`;
  }
  return null;
};
