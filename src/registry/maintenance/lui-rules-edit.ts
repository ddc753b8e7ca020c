/**
 * A namespace edit's canonical-LUI rules (core/lui-rules.ts): a curator's `luiRules` replaces them (checked
 * for shape here), `luiRules: null` asks for the rules the pattern calls for, and an edit of the pattern or
 * prefix without `luiRules` derives them again, since rules read from the old pattern may not fit the new.
 */
import { invalid } from '../../core/domain-error.js';
import { deriveLuiRules, readLuiRules, type LuiRules } from '../../core/lui-rules.js';
import type { NamespaceRow } from '../../db/tables.js';

/** The stored form of a PATCH's `luiRules` (null: derive them); invalid when it is not a set of rules. */
export function readLuiRulesValue(value: unknown): LuiRules | null {
  if (value === null) return null;
  const read = readLuiRules(value);
  if ('error' in read) throw invalid(read.error);
  return read.rules;
}

/** Sets `values.luiRules` to what the edit calls for; leaves it out when the rules stay as they are. */
export function settleLuiRules(before: NamespaceRow, values: Record<string, unknown>): void {
  const edited = { ...before, ...values } as NamespaceRow;
  const given = Object.hasOwn(values, 'luiRules');
  const source = { prefix: edited.prefix, pattern: edited.pattern };
  if (given && values.luiRules === null) values.luiRules = deriveLuiRules(source);
  else if (!given && (edited.pattern !== before.pattern || edited.prefix !== before.prefix)) values.luiRules = deriveLuiRules(source);
}
