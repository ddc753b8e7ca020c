/**
 * Java regular expressions (java.util.regex.Pattern, as the reference registry compiles `idRegexPattern`)
 * turned into JavaScript regular expressions with the same meaning, or refused with a clear message.
 *
 * JS without the `u` flag agrees with Java on every pattern of the real registry (resolver-behaviour §1.3),
 * but users may type anything, and there the two dialects part ways in three ways:
 * - constructs Java has and JS lacks, where JS would either fail with a confusing message (`a++`, `(?>a)`,
 *   `(?i)`) or, worse, silently read them as literals (`\p{Alpha}` is "p{Alpha}" in JS, `[a[bc]]` and
 *   `[a-z&&[^aeiou]]` mean something else): translated when cheap (`\Q..\E`, `\x{..}`, `\h`, `\v`, `\R`, `\A`,
 *   `\z`, `\Z`, `\G`, `\e`, `\a`, `\cX`, Java octal, a leading `(?i)`), otherwise refused;
 * - things Java refuses and JS (Annex B) quietly accepts (`x{abc}`, `\y`, `\k<x>` without a group `x`,
 *   `[a-\d]`, `a)(b` which would close our `^(?:...)$` wrapper): refused with Java's own description;
 * - the same syntax with a different meaning: `.`, `$` and `\s` follow Java's line terminators and ASCII
 *   white space; a back reference to a group that does not exist never matches, as in Java.
 * Remaining differences, all outside anything an identifier pattern needs: JS reads characters outside the
 * Basic Multilingual Plane as two UTF-16 units (Java as one code point); `\b` is ASCII-only in JS (Java counts
 * Unicode letters as word characters); a back reference to a group that did not take part matches the empty
 * string in JS and fails in Java; a leading `(?i)` also folds non-ASCII letters in JS; quantified anchors
 * (`^*`, `\b+`), stacked quantifiers (`a{2}{3}`) and a leading counted quantifier (`{2}a`) compile in Java
 * and not in JS, and a back reference inside a lookbehind compiles in JS and not in Java. (Checked against
 * Java 17 on every pattern and sample id of the real registry, no difference, and on about 90,000 random ones.)
 *
 * The translation is one linear pass over the pattern, so it is safe to run on untrusted input; only the
 * matching itself can take exponential time, and that runs in a worker thread with a time bound.
 */

import { PatternTranslator } from './pattern-translator.js';

export type JavaRegexTranslation = { source: string; flags: string } | { error: string };

/** Thrown inside the translator; becomes the `error` of the translation. */
class Refusal extends Error {}

type Range = readonly [number, number];

// Java's predefined classes without UNICODE_CHARACTER_CLASS (\d and \w are ASCII in both dialects).
const JAVA_SPACE: Range[] = [[0x09, 0x0d], [0x20, 0x20]];
const JAVA_HORIZONTAL_SPACE: Range[] = [
  [0x09, 0x09], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x180e, 0x180e],
  [0x2000, 0x200a], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000],
];
const JAVA_VERTICAL_SPACE: Range[] = [[0x0a, 0x0d], [0x85, 0x85], [0x2028, 0x2029]];

// Java's `.` stops at its five line terminators (JS does not count U+0085).
const JAVA_DOT = '[^\\n\\r\\x85\\u2028\\u2029]';
// Java's `$` (and `\Z`) without MULTILINE: at the end, or before one final line terminator, never inside \r\n.
const JAVA_DOLLAR = '(?:$|(?=\\r\\n$)|(?=[\\r\\x85\\u2028\\u2029]$)|(?<!\\r)(?=\\n$))';
// Java's `\R` never backtracks into half of a \r\n pair.
const JAVA_LINEBREAK = '(?:\\r\\n|(?!\\r\\n)[\\n\\x0B\\f\\r\\x85\\u2028\\u2029])';

function hex4(code: number): string {
  return '\\u' + code.toString(16).toUpperCase().padStart(4, '0');
}

/** One code point as JS source, usable inside or outside a class (astral ones as a surrogate pair). */
function codePointSource(code: number): string {
  if (code <= 0xffff) return hex4(code);
  const offset = code - 0x10000;
  return hex4(0xd800 + (offset >> 10)) + hex4(0xdc00 + (offset & 0x3ff));
}

function rangesSource(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? hex4(lo) : `${hex4(lo)}-${hex4(hi)}`)).join('');
}

function complement(ranges: readonly Range[]): Range[] {
  const result: Range[] = [];
  let next = 0;
  for (const [lo, hi] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (lo > next) result.push([next, lo - 1]);
    next = Math.max(next, hi + 1);
  }
  if (next <= 0xffff) result.push([next, 0xffff]);
  return result;
}

/**
 * Java removes `\Q...\E` quoting before it parses anything else (Pattern.RemoveQEQuoting): quoted ASCII
 * punctuation gets a backslash, a quoted digit right after `\Q` becomes `\x3<digit>`. Done the same way here.
 */
function removeQeQuoting(pattern: string): string {
  let i = 0;
  while (i < pattern.length - 1) {
    if (pattern[i] !== '\\') i += 1;
    else if (pattern[i + 1] !== 'Q') i += 2;
    else break;
  }
  if (i >= pattern.length - 1) return pattern;
  let out = pattern.slice(0, i);
  i += 2;
  let inQuote = true;
  let beginQuote = true;
  while (i < pattern.length) {
    const c = pattern[i++] as string;
    if (c.charCodeAt(0) > 0x7f || /[A-Za-z]/.test(c)) {
      out += c;
    } else if (/[0-9]/.test(c)) {
      out += beginQuote ? '\\x3' + c : c;
    } else if (c !== '\\') {
      out += inQuote ? '\\' + c : c;
    } else if (inQuote) {
      if (pattern[i] === 'E') {
        i++;
        inQuote = false;
      } else {
        out += '\\\\';
      }
    } else if (pattern[i] === 'Q') {
      i++;
      inQuote = true;
      beginQuote = true;
      continue;
    } else {
      out += c;
      if (i < pattern.length) out += pattern[i++];
    }
    beginQuote = false;
  }
  return out;
}

/** What one escape sequence stands for. */
type Escape =
  | { kind: 'char'; code: number }
  | { kind: 'class'; ranges: readonly Range[]; negated: boolean; jsSource?: string }
  | { kind: 'other'; source: string };

/** A back reference, resolved once the number of groups is known. */
interface BackReference {
  group: number;
}

class Translator extends PatternTranslator {
  private readonly parts: (string | BackReference)[] = [];
  private groupsOpened = 0;
  private depth = 0;
  private readonly groupNames = new Set<string>();
  private flags = '';
  protected readonly dotSource = JAVA_DOT;
  protected readonly dollarSource = JAVA_DOLLAR;

  translate(): { source: string; flags: string } {
    if (this.p.startsWith('(?i)')) {
      this.flags = 'i';
      this.i = 4;
    }
    this.walk();
    if (this.depth > 0) throw new Refusal('Unclosed group');
    const total = this.groupsOpened;
    // Wrapped so that digits after it are not read as part of the number; Java never matches a reference to
    // a group that does not exist, where JS would read it as an octal escape.
    const source = this.parts
      .map((part) => (typeof part === 'string' ? part : part.group <= total ? `(?:\\${part.group})` : '(?!)'))
      .join('');
    return { source, flags: this.flags };
  }

  protected emit(source: string): void {
    this.parts.push(source);
  }

  protected literal(ch: string): void {
    this.parts.push(ch);
  }

  protected override closeGroup(): void {
    if (this.depth === 0) throw new Refusal("Unmatched closing ')'");
    this.depth--;
    super.closeGroup();
  }

  protected openGroup(): void {
    const p = this.p;
    this.depth++;
    if (p[this.i + 1] !== '?') {
      this.groupsOpened++;
      this.i++;
      this.parts.push('(');
      return;
    }
    const rest = p.slice(this.i + 2, this.i + 4);
    if (rest.startsWith(':') || rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!') {
      const length = rest.startsWith('<') ? 4 : 3;
      this.parts.push(p.slice(this.i, this.i + length));
      this.i += length;
      return;
    }
    if (rest.startsWith('<')) {
      const match = /^<([^>]*)>/.exec(p.slice(this.i + 2));
      const name = match?.[1] ?? '';
      if (!/^[A-Za-z]/.test(name)) throw new Refusal('capturing group name does not start with a Latin letter');
      if (!match || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Refusal("named capturing group is missing trailing '>'");
      if (this.groupNames.has(name)) throw new Refusal(`Named capturing group <${name}> is already defined`);
      this.groupNames.add(name);
      this.groupsOpened++;
      this.parts.push(`(?<${name}>`);
      this.i += 2 + match[0].length;
      return;
    }
    if (rest.startsWith('>')) {
      throw new Refusal("atomic groups '(?>...)' are not supported; use a non-capturing group '(?:...)'");
    }
    if (/^[A-Za-z-]/.test(rest)) {
      throw new Refusal("inline flags such as '(?x)' or '(?i:...)' are not supported (only a leading '(?i)' is)");
    }
    // Anything else is not a group Java knows either; JS refuses it as well ("Invalid group").
    this.i++;
    this.parts.push('(');
  }

  /** After `*`, `+`, `?` or `{n,m}`: `?` makes it lazy (both dialects), `+` possessive (Java only). */
  protected quantifierSuffix(): void {
    const next = this.p[this.i];
    if (next === '?') {
      this.i++;
      this.parts.push('?');
    } else if (next === '+') {
      throw new Refusal("possessive quantifiers such as 'a++' are not supported; use a greedy one such as 'a+'");
    }
  }

  /** `{n}`, `{n,}` or `{n,m}`: Java reads `{` as nothing else. */
  protected brace(): void {
    const rest = this.p.slice(this.i);
    const match = /^\{(\d+)(,(\d*))?\}/.exec(rest);
    if (!match) {
      // Java accepts `{` only as the start of a counted quantifier; JS would take it literally.
      if (/^\{\d+(,\d*)?/.test(rest)) throw new Refusal('Unclosed counted closure');
      throw new Refusal('Illegal repetition');
    }
    this.i += match[0].length;
    this.parts.push(match[0]);
    this.quantifierSuffix();
  }

  protected escapeOutsideClass(): void {
    const escape = this.readEscape(false);
    if (escape.kind === 'other') this.parts.push(escape.source);
    else if (escape.kind === 'char') {
      const source = codePointSource(escape.code);
      this.parts.push(escape.code > 0xffff ? `(?:${source})` : source);
    } else if (escape.jsSource !== undefined) this.parts.push(escape.jsSource);
    else this.parts.push(`[${escape.negated ? '^' : ''}${rangesSource(escape.ranges)}]`);
  }

  /** At a backslash; consumes the whole escape sequence. */
  private readEscape(inClass: boolean): Escape {
    const p = this.p;
    const start = this.i;
    const c = p[start + 1];
    if (c === undefined) throw new Refusal("the pattern ends with an unfinished escape '\\'");
    this.i = start + 2;
    const unsupportedInClass = () => {
      if (inClass) throw new Refusal('Illegal/unsupported escape sequence');
    };
    switch (c) {
      case 't': return { kind: 'char', code: 0x09 };
      case 'n': return { kind: 'char', code: 0x0a };
      case 'r': return { kind: 'char', code: 0x0d };
      case 'f': return { kind: 'char', code: 0x0c };
      case 'a': return { kind: 'char', code: 0x07 };
      case 'e': return { kind: 'char', code: 0x1b };
      case 'c': {
        const target = p.codePointAt(this.i);
        if (target === undefined) throw new Refusal('Illegal control escape sequence');
        this.i += target > 0xffff ? 2 : 1;
        return { kind: 'char', code: target ^ 64 };
      }
      case '0': {
        // Java octal: \0n, \0nn or \0mnn with m <= 3 (JS reads \0377 as \037 followed by 7).
        const digits = /^[0-7]{1,3}/.exec(p.slice(this.i))?.[0] ?? '';
        if (digits === '') throw new Refusal('Illegal octal escape sequence');
        const used = digits.length === 3 && digits > '377' ? digits.slice(0, 2) : digits;
        this.i += used.length;
        return { kind: 'char', code: parseInt(used, 8) };
      }
      case 'x': {
        const rest = p.slice(this.i);
        const short = /^[0-9A-Fa-f]{2}/.exec(rest);
        if (short) {
          this.i += 2;
          return { kind: 'char', code: parseInt(short[0], 16) };
        }
        const long = /^\{([0-9A-Fa-f]+)\}/.exec(rest);
        if (!long) throw new Refusal('Illegal hexadecimal escape sequence');
        const code = parseInt(long[1] as string, 16);
        if (code > 0x10ffff) throw new Refusal('Hexadecimal codepoint is too big');
        this.i += long[0].length;
        return { kind: 'char', code };
      }
      case 'u': {
        const digits = /^[0-9A-Fa-f]{4}/.exec(p.slice(this.i));
        if (!digits) throw new Refusal('Illegal Unicode escape sequence');
        this.i += 4;
        return { kind: 'char', code: parseInt(digits[0], 16) };
      }
      case 'd': return { kind: 'class', ranges: [], negated: false, jsSource: '\\d' };
      case 'D': return { kind: 'class', ranges: [], negated: true, jsSource: '\\D' };
      case 'w': return { kind: 'class', ranges: [], negated: false, jsSource: '\\w' };
      case 'W': return { kind: 'class', ranges: [], negated: true, jsSource: '\\W' };
      case 's': return { kind: 'class', ranges: JAVA_SPACE, negated: false };
      case 'S': return { kind: 'class', ranges: JAVA_SPACE, negated: true };
      case 'h': return { kind: 'class', ranges: JAVA_HORIZONTAL_SPACE, negated: false };
      case 'H': return { kind: 'class', ranges: JAVA_HORIZONTAL_SPACE, negated: true };
      case 'v': return { kind: 'class', ranges: JAVA_VERTICAL_SPACE, negated: false };
      case 'V': return { kind: 'class', ranges: JAVA_VERTICAL_SPACE, negated: true };
      case 'p':
      case 'P':
        throw new Refusal(
          'Unicode and POSIX classes such as \\p{Alpha} are not supported; use an explicit class such as [A-Za-z]',
        );
      case 'N':
        throw new Refusal('named characters (\\N{...}) are not supported; use \\uXXXX');
      case 'X':
        unsupportedInClass();
        throw new Refusal('grapheme clusters (\\X) are not supported');
      case 'R':
        unsupportedInClass();
        return { kind: 'other', source: JAVA_LINEBREAK };
      case 'b':
        unsupportedInClass();
        if (p.startsWith('{g}', this.i)) throw new Refusal('grapheme boundaries (\\b{g}) are not supported');
        return { kind: 'other', source: '\\b' };
      case 'B':
        unsupportedInClass();
        return { kind: 'other', source: '\\B' };
      case 'A':
      case 'G': // with String.matches the previous match ends where the input starts
        unsupportedInClass();
        return { kind: 'other', source: '^' };
      case 'z':
        unsupportedInClass();
        return { kind: 'other', source: '$' };
      case 'Z':
        unsupportedInClass();
        return { kind: 'other', source: JAVA_DOLLAR };
      case 'k': {
        unsupportedInClass();
        const match = /^<([A-Za-z][A-Za-z0-9]*)>/.exec(p.slice(this.i));
        if (!match) throw new Refusal('\\k is not followed by \'<\' for named capturing group');
        const name = match[1] as string;
        // Java resolves the name while parsing, so the group must come first.
        if (!this.groupNames.has(name)) throw new Refusal(`named capturing group <${name}> does not exist`);
        this.i += match[0].length;
        return { kind: 'other', source: `\\k<${name}>` };
      }
      default:
        break;
    }
    if (c >= '1' && c <= '9') {
      unsupportedInClass();
      // Java reads further digits only while they still name a group opened so far.
      let group = Number(c);
      for (;;) {
        const digit = p[this.i];
        if (digit === undefined || digit < '0' || digit > '9') break;
        const longer = group * 10 + Number(digit);
        if (longer > this.groupsOpened) break;
        group = longer;
        this.i++;
      }
      this.parts.push({ group });
      return { kind: 'other', source: '' };
    }
    // Every ASCII letter Java gives a meaning is handled above (`\E` only counts after `\Q`).
    if (/[A-Za-z]/.test(c)) throw new Refusal('Illegal/unsupported escape sequence');
    // Any other character escapes itself, in both dialects.
    const code = p.codePointAt(start + 1) as number;
    this.i = start + 1 + (code > 0xffff ? 2 : 1);
    return { kind: 'char', code };
  }

  protected characterClass(): void {
    const p = this.p;
    this.i++;
    let out = '[';
    if (p[this.i] === '^') {
      out += '^';
      this.i++;
    }
    let items = 0;
    for (;;) {
      const ch = p[this.i];
      if (ch === undefined) throw new Refusal('Unclosed character class');
      if (ch === ']') {
        this.i++;
        if (items > 0) break;
        // Java takes a `]` before anything else in the class as a literal; JS would close an empty class.
        out += '\\]';
        items++;
        continue;
      }
      if (ch === '[') {
        throw new Refusal('nested character classes such as [a[bc]] are not supported; write one class such as [abc]');
      }
      if (ch === '&' && p[this.i + 1] === '&') {
        throw new Refusal('character class intersections (&&) are not supported; list the characters instead');
      }
      const first = this.readClassAtom();
      items++;
      if (first.kind === 'class') {
        out += this.classEscapeInClass(first);
        continue;
      }
      if (first.kind !== 'char') throw new Refusal('Illegal/unsupported escape sequence');
      if (p[this.i] === '-' && p[this.i + 1] !== undefined && p[this.i + 1] !== ']') {
        this.i++;
        if (p[this.i] === '[') {
          throw new Refusal('nested character classes such as [a[bc]] are not supported; write one class such as [abc]');
        }
        const last = this.readClassAtom();
        if (last.kind !== 'char' || last.code < first.code) throw new Refusal('Illegal character range');
        out += `${codePointSource(first.code)}-${codePointSource(last.code)}`;
      } else {
        out += codePointSource(first.code);
      }
    }
    this.parts.push(out + ']');
  }

  private readClassAtom(): Escape {
    const p = this.p;
    if (p[this.i] === '\\') return this.readEscape(true);
    const code = p.codePointAt(this.i) as number;
    this.i += code > 0xffff ? 2 : 1;
    return { kind: 'char', code };
  }

  private classEscapeInClass(escape: Extract<Escape, { kind: 'class' }>): string {
    if (escape.jsSource !== undefined) return escape.jsSource;
    return rangesSource(escape.negated ? complement(escape.ranges) : escape.ranges);
  }
}

/** Translates a Java pattern into JS source and flags (to wrap as `^(?:source)$`), or says why it cannot. */
export function translateJavaRegex(pattern: string): JavaRegexTranslation {
  try {
    return new Translator(removeQeQuoting(pattern)).translate();
  } catch (error) {
    if (error instanceof Refusal) return { error: error.message };
    throw error;
  }
}

/** The reason of a JS SyntaxError without V8's `Invalid regular expression: /<source>/<flags>: ` prefix. */
function describeSyntaxError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const colon = message.lastIndexOf(': ');
  return colon >= 0 && message.startsWith('Invalid regular expression') ? message.slice(colon + 2) : message;
}

export interface RegexEvaluation {
  compiles: boolean;
  error?: string;
  matches?: boolean;
}

/**
 * Java `Pattern.compile(pattern)` and, when a sample is given, `sample.matches(pattern)` (whole-string match).
 * The match may take exponential time on a hostile pattern: call this only where it can be stopped.
 */
export function evaluateJavaRegex(pattern: string, sample: string | null): RegexEvaluation {
  const translation = translateJavaRegex(pattern);
  if ('error' in translation) return { compiles: false, error: `Invalid regex: ${translation.error}` };
  let regex: RegExp;
  try {
    // Without the u flag, like the resolver: the identity escapes of real patterns (`\:`, `\_`) need it.
    regex = new RegExp(`^(?:${translation.source})$`, translation.flags);
  } catch (error) {
    return { compiles: false, error: `Invalid regex: ${describeSyntaxError(error)}` };
  }
  if (sample === null) return { compiles: true };
  return { compiles: true, matches: regex.test(sample) };
}
