/**
 * The walk over a regex pattern outside character classes that both pattern translators make
 * (java-regex.ts: Java to JavaScript; linear-lui-pattern.ts: JavaScript to RE2). The dialects agree on which
 * characters start an escape, a class, a group or a quantifier; what each of those means is the dialect's,
 * so the walk hands each to its translator, which consumes it and emits its translation.
 */
export abstract class PatternTranslator {
  /** Where the walk is in the pattern. */
  protected i = 0;

  constructor(protected readonly p: string) {}

  /** What `.` and `$` become. */
  protected abstract readonly dotSource: string;
  protected abstract readonly dollarSource: string;

  protected abstract emit(source: string): void;
  /** At a backslash outside a class. */
  protected abstract escapeOutsideClass(): void;
  /** At `[`. */
  protected abstract characterClass(): void;
  /** At `(`. */
  protected abstract openGroup(): void;
  /** After `*`, `+` or `?` (emitted): what may follow one (`?` for a lazy one). */
  protected abstract quantifierSuffix(): void;
  /** At `{`. */
  protected abstract brace(): void;
  /** After any other character, which stands for itself. */
  protected abstract literal(ch: string): void;

  /** At `)`. */
  protected closeGroup(): void {
    this.i++;
    this.emit(')');
  }

  /** Walks from where it is to the end of the pattern. */
  protected walk(): void {
    const p = this.p;
    while (this.i < p.length) {
      const ch = p[this.i] as string;
      switch (ch) {
        case '\\':
          this.escapeOutsideClass();
          break;
        case '[':
          this.characterClass();
          break;
        case '(':
          this.openGroup();
          break;
        case ')':
          this.closeGroup();
          break;
        case '|':
        case '^':
          this.i++;
          this.emit(ch);
          break;
        case '.':
          this.i++;
          this.emit(this.dotSource);
          break;
        case '$':
          this.i++;
          this.emit(this.dollarSource);
          break;
        case '*':
        case '+':
        case '?':
          this.i++;
          this.emit(ch);
          this.quantifierSuffix();
          break;
        case '{':
          this.brace();
          break;
        default:
          this.i++;
          this.literal(ch);
      }
    }
  }
}
