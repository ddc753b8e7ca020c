import { firstValue } from './paging.js';

/** A whole number query value within [min, max]; anything else (absent, junk, out of range) is the default. */
export function intParam(value: string | string[] | undefined, fallback: number, min: number, max: number): number {
  const text = firstValue(value);
  if (text === undefined || !/^\d{1,9}$/.test(text)) return fallback;
  const n = Number(text);
  return n < min || n > max ? fallback : n;
}

/** A text query value (the first when repeated), '' when absent. */
export function textParam(value: string | string[] | undefined): string {
  return firstValue(value) ?? '';
}

/**
 * The text of an EBI Search `query` written in Lucene syntax by the reference's web app: `*:*` (or `*`)
 * for everything, otherwise Lucene's backslash escapes undone, and surrounding quotes and a trailing
 * wildcard set aside (the registry search already matches prefixes and word starts).
 */
export function luceneText(query: string): string {
  const text = query.trim();
  if (text === '' || text === '*:*' || text === '*') return '';
  const unescaped = text.replace(/\\(.)/g, '$1');
  return unescaped.replace(/^"(.*)"$/, '$1').replace(/\*+$/, '');
}
