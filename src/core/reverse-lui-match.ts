/**
 * Whole-string LUI pattern matching for reverse lookup, memoised per pattern.
 *
 * Registry patterns are Java regexes tested with `String.matches`. Wrapping them in `^(?:...)$` without the
 * `u` flag reproduces Java on every registry pattern; the `u` flag rejects identity escapes such as `\:`
 * that the registry uses (resolver-behaviour.md §1.3).
 */
export class LuiPatternMatcher {
  // null marks a pattern JS cannot compile: such a namespace then matches nothing instead of failing a lookup.
  readonly #compiled = new Map<string, RegExp | null>();

  matches(pattern: string, lui: string): boolean {
    let regex = this.#compiled.get(pattern);
    if (regex === undefined) {
      regex = compileLuiPattern(pattern);
      this.#compiled.set(pattern, regex);
    }
    return regex !== null && regex.test(lui);
  }
}

export function compileLuiPattern(pattern: string): RegExp | null {
  try {
    return new RegExp('^(?:' + pattern + ')$');
  } catch {
    return null;
  }
}
