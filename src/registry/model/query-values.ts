/** The longest value any searched column holds: a longer one cannot match, and is not sent to Postgres. */
export const MAX_COLUMN_LENGTH = 2000;

/**
 * Whether a client's value could be stored in a column at all. Postgres refuses NUL characters with an
 * error, and an over-long value cannot match, so such values are answered "no match" without a query.
 */
export function canMatch(value: string, maxLength = MAX_COLUMN_LENGTH): boolean {
  return value.length <= maxLength && !value.includes('\u0000');
}

/** A LIKE pattern that matches `value` literally (Postgres' default escape character is the backslash). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Client values echoed in messages are cut short: a message names what is missing, it is not a mirror. */
export function quote(value: string): string {
  return value.length > 100 ? `'${value.slice(0, 100)}...'` : `'${value}'`;
}

/** Registry ids are bigint: a path or parameter that is not a plausible id cannot name a row. */
export function parseId(raw: string): number | null {
  if (!/^\d{1,15}$/.test(raw)) return null;
  return Number(raw);
}
