/**
 * Suffix passthrough (issue 25 item 5): a versioned or path-like identifier such as
 * `dandi:000027/0.210831.2033` names a record (`000027`) and a part of it (`/0.210831.2033`). The
 * reference answers such a request 400 because the whole LUI does not match the pattern; N2T passes the
 * part after the identifier through to the target URL. A namespace whose curator turned its
 * `suffixPassthrough` on resolves the leading part its pattern matches and appends the rest, encoded, to
 * each provider URL. The flag is off by default, and only a LUI its pattern (and its canonical-LUI rules)
 * refused is ever split, so every answer given before is given unchanged.
 *
 * The rule, precisely:
 * - a split point is a position in the LUI holding one of SUFFIX_SEPARATORS (`/ . ; # ?`); the suffix starts
 *   with that separator and runs to the end; the head before it must be non-empty;
 * - only the first MAX_SPLIT_POINTS split points from the left, with a head of at most MAX_HEAD_LENGTH
 *   characters, are candidates, and of those the longest head that the namespace's pattern matches (with the
 *   engine the pattern is matched with everywhere else, lui-pattern.ts) wins; so a request costs at most
 *   MAX_SPLIT_POINTS more matches of at most MAX_HEAD_LENGTH characters (together about two matches of the
 *   longest LUI the resolver tests), whatever it holds;
 * - a suffix longer than MAX_SUFFIX_LENGTH, or holding a `.` or `..` path segment (which a browser would
 *   resolve against the provider's path, leaving the record's URL), is refused: the request then fails with
 *   a 400 saying why.
 */
import { matchesLuiPattern } from './lui-pattern.js';

/** The characters a suffix may start with. */
export const SUFFIX_SEPARATORS = '/.;#?';
/** How many split points (from the left) are tried: a LUI rarely holds more than a few separators itself. */
export const MAX_SPLIT_POINTS = 16;
/** Longest leading part tried as the LUI: the registry's longest real identifiers are far shorter. */
export const MAX_HEAD_LENGTH = 256;
/** Longest suffix passed through; longer ones are refused (no provider path needs more). */
export const MAX_SUFFIX_LENGTH = 1024;

export type LuiSplit =
  | { kind: 'split'; head: string; suffix: string }
  /** A head matched, but its suffix cannot be passed through; `problem` says why, for the 400's message. */
  | { kind: 'refused'; problem: string }
  | { kind: 'none' };

const NO_SPLIT: LuiSplit = Object.freeze({ kind: 'none' });

/** The longest leading part of `localId` that `pattern` matches and the suffix after it, as defined above. */
export function splitLuiSuffix(pattern: string, localId: string): LuiSplit {
  const points: number[] = [];
  const last = Math.min(localId.length - 1, MAX_HEAD_LENGTH);
  for (let i = 1; i <= last && points.length < MAX_SPLIT_POINTS; i++) {
    if (SUFFIX_SEPARATORS.includes(localId[i]!)) points.push(i);
  }
  for (let p = points.length - 1; p >= 0; p--) {
    const at = points[p]!;
    if (!matchesLuiPattern(pattern, localId.slice(0, at))) continue;
    const suffix = localId.slice(at);
    const problem = suffixProblem(suffix);
    return problem === null ? { kind: 'split', head: localId.slice(0, at), suffix } : { kind: 'refused', problem };
  }
  return NO_SPLIT;
}

function suffixProblem(suffix: string): string | null {
  if (suffix.length > MAX_SUFFIX_LENGTH) return `is longer than ${MAX_SUFFIX_LENGTH} characters`;
  // Segments as a URL parser sees them once the suffix is in a provider URL's path. `\` counts as `/` there
  // for http(s), but it is percent-encoded below, so it separates nothing.
  const pathEnd = firstIndexOf(suffix, '?#');
  const segments = suffix.slice(0, pathEnd).split('/');
  // The first piece is glued to the head (`000027.v2`), so it is no segment of its own.
  for (let i = 1; i < segments.length; i++) {
    if (segments[i] === '.' || segments[i] === '..') return "holds a '.' or '..' path segment";
  }
  return null;
}

function firstIndexOf(text: string, characters: string): number {
  for (let i = 0; i < text.length; i++) if (characters.includes(text[i]!)) return i;
  return text.length;
}

// Kept as they are: RFC 3986 unreserved and sub-delims, and `:@/?#` (a query or fragment the suffix starts
// stays one). `%` is not kept: the suffix arrives percent-decoded, so a `%` in it is a literal percent sign.
const KEPT = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]/;
const encoder = new TextEncoder();

/** The suffix as it is appended to a provider URL: every other character percent-encoded as UTF-8. */
export function encodeLuiSuffix(suffix: string): string {
  let out = '';
  for (const ch of suffix) {
    if (ch.length === 1 && KEPT.test(ch)) {
      out += ch;
      continue;
    }
    // A lone surrogate is encoded as U+FFFD, as TextEncoder does; controls (CR, LF, NUL) as %0D, %0A, %00.
    for (const byte of encoder.encode(ch)) out += '%' + (byte < 16 ? '0' : '') + byte.toString(16).toUpperCase();
  }
  return out;
}
