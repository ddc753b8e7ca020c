/**
 * The spelling of a namespace's prefix that its LUI pattern requires at the start of a LUI: what the parser
 * re-cases an embedded prefix to (compact-id-parser.ts) and the canonical-LUI rules respell it to
 * (lui-rules.ts).
 */

const REGEX_SYNTAX = '\\^$.|?*+()[]{}';

/**
 * The spelling of `prefix` that `pattern` requires at its start, followed by a literal `:`: `^GO:\d{7}$` gives
 * `GO`, `^(ark\:)/*...` gives `ark`. Null when the pattern does not start with the prefix as plain literals
 * (`^(P)?EO\:...`), in which case nothing is re-cased.
 */
export function deriveCanonicalPrefix(pattern: string, prefix: string): string | null {
  let at = pattern.startsWith('^') ? 1 : 0;
  if (pattern.startsWith('(?:', at)) at += 3;
  else if (pattern[at] === '(' && pattern[at + 1] !== '?') at += 1;
  let spelled = '';
  while (spelled.length < prefix.length) {
    const literal = readLiteral(pattern, at);
    if (literal === null) return null;
    spelled += literal.char;
    at = literal.next;
  }
  const separator = readLiteral(pattern, at);
  if (separator === null || separator.char !== ':') return null;
  return spelled.toLowerCase() === prefix.toLowerCase() ? spelled : null;
}

function readLiteral(pattern: string, at: number): { char: string; next: number } | null {
  const char = pattern[at];
  if (char === undefined) return null;
  if (char === '\\') {
    const escaped = pattern[at + 1];
    // `\d`, `\w`, `\Q`... are classes or constructs, not literals; only escaped punctuation is literal.
    if (escaped === undefined || /[A-Za-z0-9]/.test(escaped)) return null;
    return quantified(pattern, at + 2) ? null : { char: escaped, next: at + 2 };
  }
  if (REGEX_SYNTAX.includes(char)) return null;
  return quantified(pattern, at + 1) ? null : { char, next: at + 1 };
}

/** A literal followed by a quantifier is optional or repeated, so it does not fix the spelling. */
function quantified(pattern: string, at: number): boolean {
  const next = pattern[at];
  return next === '?' || next === '*' || next === '+' || next === '{';
}

