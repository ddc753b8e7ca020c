/** MIR id look-up for `GET /resolveMirId/{mirId}` (reference `ResolverApiModel.resolveMirId`). */

import type { NamespaceEntry, RegistrySnapshot } from './registry-snapshot.js';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/**
 * The MIR id to look up for a request value: a plain integer (`22`, `+22`, `-3`, `022`) becomes `MIR:%08d`,
 * anything else is used as given. Returns null for values the reference turns into a 500 (a number that is not
 * a Java int, such as `1.5`, `0x16` or `99999999999`): they cannot name a MIR id, so the caller answers 404.
 */
export function normaliseMirId(value: string): string | null {
  if (!/^[+-]?\d+$/.test(value)) {
    // NumberUtils.isCreatable accepts decimals, exponents, hex and type suffixes, which Integer.valueOf then
    // rejects; registry MIR ids never look like numbers, so those can only miss.
    return looksLikeJavaNumber(value) ? null : value;
  }
  const digitsStart = value[0] === '+' || value[0] === '-' ? 1 : 0;
  // isCreatable reads a leading 0 as octal and rejects 8 and 9; such a value is then looked up verbatim.
  if (value.length > digitsStart + 1 && value[digitsStart] === '0' && /[89]/.test(value)) return value;
  const number = Number(value);
  if (number < INT_MIN || number > INT_MAX) return null;
  return number < 0 ? 'MIR:-' + String(-number).padStart(7, '0') : 'MIR:' + String(number).padStart(8, '0');
}

/** The namespace whose MIR id, or one of whose resources' MIR id, is `value`; exact and case-sensitive. */
export function findNamespaceByMirId(value: string, snapshot: RegistrySnapshot): NamespaceEntry | null {
  const mirId = normaliseMirId(value);
  if (mirId === null) return null;
  return snapshot.namespacesByMirId.get(mirId) ?? null;
}

function looksLikeJavaNumber(value: string): boolean {
  return /^[+-]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdDlL]?)$/.test(value);
}
