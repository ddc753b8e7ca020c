/**
 * The prefix as a namespace's pattern spells it before its `:` (`CHEBI`, `VariO`, `EO` in ^(P)?EO\:...):
 * how the real-data tests write a namespace's sample as a compact identifier when its LUI embeds the
 * prefix. Read from the pattern here, independently of the resolver's own reading (core/lui-prefix.ts),
 * so that the tests check it rather than repeat it. Undefined when the pattern does not spell it.
 */
export function embeddedSpelling(ns: { prefix: string; pattern: string }): string | undefined {
  const lowerPattern = ns.pattern.toLowerCase();
  const lowerPrefix = ns.prefix.toLowerCase();
  for (let at = lowerPattern.indexOf(lowerPrefix); at !== -1; at = lowerPattern.indexOf(lowerPrefix, at + 1)) {
    const after = at + lowerPrefix.length;
    if (ns.pattern.startsWith(':', after) || ns.pattern.startsWith('\\:', after)) return ns.pattern.slice(at, after);
  }
  return undefined;
}

/** embeddedSpelling, for a namespace whose pattern must spell its prefix. */
export function requiredEmbeddedSpelling(ns: { prefix: string; pattern: string }): string {
  const spelling = embeddedSpelling(ns);
  if (spelling === undefined) throw new Error(`the pattern of embedded namespace ${ns.prefix} does not spell its prefix: ${ns.pattern}`);
  return spelling;
}
