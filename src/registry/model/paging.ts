import type { ParsedUrlQuery } from 'node:querystring';
import { badRequest } from '../../http/http-error.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;
/** Java's Integer.MAX_VALUE, the reference's upper bound for a page number. */
export const MAX_PAGE_NUMBER = 2_147_483_647;
// More sort criteria than a collection has columns can only be noise (or an attack on the planner).
const MAX_SORT_ORDERS = 10;
const MAX_SORT_PARAM_LENGTH = 500;

export type Direction = 'asc' | 'desc';

export interface SortOrder {
  /** The JSON property name, as the client wrote it and as page links repeat it. */
  property: string;
  /** The whitelisted camelCase column the property maps to. */
  column: string;
  direction: Direction;
}

export interface PageRequest {
  page: number;
  size: number;
  sort: SortOrder[];
}

/** Sortable JSON properties of a collection, each mapped to its column. */
export type SortWhitelist = Readonly<Record<string, string>>;

export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function allValues(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * A whole number as Java's Integer.parseInt reads it, bounded to [0, upper]. Anything else (`undefined`,
 * `1e3`, ` 2`, empty) is junk, for which the reference falls back to its default; clients in the wild send
 * `page=undefined`. Digits beyond the upper bound are clamped rather than refused, so a huge page number is
 * simply past the end.
 */
function parseBounded(raw: string | undefined, upper: number): number | 'junk' {
  if (raw === undefined || !/^[+-]?\d+$/.test(raw)) return 'junk';
  if (raw.startsWith('-')) return /^-0+$/.test(raw) ? 0 : 'junk';
  const digits = raw.replace(/^\+?0*/, '');
  if (digits === '') return 0;
  if (digits.length > 10) return upper;
  return Math.min(Number(digits), upper);
}

function parsePage(raw: string | undefined): number {
  const parsed = parseBounded(raw, MAX_PAGE_NUMBER);
  return parsed === 'junk' ? 0 : parsed;
}

function parseSize(raw: string | undefined): number {
  const parsed = parseBounded(raw, MAX_PAGE_SIZE);
  return parsed === 'junk' || parsed < 1 ? DEFAULT_PAGE_SIZE : parsed;
}

/**
 * `sort=name,asc`, `sort=name` (ascending), `sort=name,prefix,desc` (both descending), repeatable. Unknown
 * properties are dropped, as the reference does; a property sorted twice keeps its first direction.
 */
export function parseSort(values: string[], whitelist: SortWhitelist): SortOrder[] {
  const orders: SortOrder[] = [];
  const seen = new Set<string>();
  for (const value of values.slice(0, MAX_SORT_ORDERS)) {
    if (value.length > MAX_SORT_PARAM_LENGTH) continue;
    const parts = value.split(',').map((p) => p.trim()).filter((p) => p !== '' && p.toLowerCase() !== 'ignorecase');
    const last = parts[parts.length - 1]?.toLowerCase();
    const direction: Direction = last === 'desc' ? 'desc' : 'asc';
    if (last === 'asc' || last === 'desc') parts.pop();
    for (const property of parts) {
      const column = Object.hasOwn(whitelist, property) ? whitelist[property] : undefined;
      if (column === undefined || seen.has(property) || orders.length >= MAX_SORT_ORDERS) continue;
      seen.add(property);
      orders.push({ property, column, direction });
    }
  }
  return orders;
}

/** Paging as the reference's Spring Data handles it, tolerant of anything a client may send. */
export function parsePageRequest(query: ParsedUrlQuery, whitelist: SortWhitelist): PageRequest {
  return {
    page: parsePage(firstValue(query.page)),
    size: parseSize(firstValue(query.size)),
    sort: parseSort(allValues(query.sort), whitelist),
  };
}

export interface GivenParam {
  /** The spelling the client used (a parameter may have an alias). */
  name: string;
  value: string;
}

/** The first of `names` the query carries; 400 naming the parameter when none is there. */
export function requireParam(query: ParsedUrlQuery, names: readonly [string, ...string[]]): GivenParam {
  for (const name of names) {
    const value = firstValue(query[name]);
    if (value !== undefined) return { name, value };
  }
  const [main, ...aliases] = names;
  const also = aliases.length > 0 ? ` (or ${aliases.map((a) => `'${a}'`).join(', ')})` : '';
  throw badRequest(`Required request parameter '${main}'${also} is missing`);
}
