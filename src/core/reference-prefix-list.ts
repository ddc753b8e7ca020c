/**
 * Reads another registry's prefix list (issue 15 item 6) from the text of a file: JSON (an array of
 * `{prefix, name}` objects, an object from prefix to name, or an object from prefix to a record with a
 * `name`, as Bioregistry's registry.json is), TSV or CSV (RFC 4180 quoting) with a `prefix` column and an
 * optional `name` column named in a header row, or without a header the prefix first and the name second.
 * Pure: what it reads is stored by db/reference-prefixes.ts.
 */

export interface ReferencePrefix {
  prefix: string;
  name: string;
}

export type PrefixListFormat = 'json' | 'tsv' | 'csv';

/** The list cannot be read; nothing is stored. */
export class PrefixListError extends Error {
  override name = 'PrefixListError';
}

export const MAX_REFERENCE_PREFIXES = 200_000;
const MAX_PREFIX_LENGTH = 255;
const MAX_NAME_LENGTH = 2000;
/** A source names a registry: short, and safe to show and to key by. */
export const SOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The format a file's name says, else the one its text looks like. */
export function guessFormat(text: string, fileName = ''): PrefixListFormat {
  const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  if (extension === 'json' || extension === 'tsv' || extension === 'csv') return extension;
  const start = text.trimStart()[0];
  if (start === '[' || start === '{') return 'json';
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  return firstLine.includes('\t') ? 'tsv' : 'csv';
}

/** The prefixes of the list, each once whatever its case (the first kept), blank prefixes left out. */
export function readPrefixList(text: string, format: PrefixListFormat = guessFormat(text)): ReferencePrefix[] {
  const entries = format === 'json' ? fromJson(text) : fromTable(format === 'tsv' ? splitTsv(text) : splitCsv(text));
  const seen = new Set<string>();
  const prefixes: ReferencePrefix[] = [];
  for (const entry of entries) {
    const prefix = entry.prefix.trim();
    if (prefix === '' || seen.has(prefix.toLowerCase())) continue;
    if (prefix.length > MAX_PREFIX_LENGTH) throw new PrefixListError(`the prefix '${prefix.slice(0, 40)}...' is longer than ${MAX_PREFIX_LENGTH} characters`);
    seen.add(prefix.toLowerCase());
    prefixes.push({ prefix, name: entry.name.trim().slice(0, MAX_NAME_LENGTH) });
    if (prefixes.length > MAX_REFERENCE_PREFIXES) throw new PrefixListError(`a list holds at most ${MAX_REFERENCE_PREFIXES} prefixes`);
  }
  if (prefixes.length === 0) throw new PrefixListError('the list holds no prefix');
  return prefixes;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

function fromJson(source: string): ReferencePrefix[] {
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (error) {
    throw new PrefixListError(`the list is not valid JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(json)) {
    return json.map((item, i) => {
      if (item === null || typeof item !== 'object' || typeof (item as { prefix?: unknown }).prefix !== 'string') {
        throw new PrefixListError(`item ${i} of the list is not an object with a "prefix"`);
      }
      const record = item as { prefix: string; name?: unknown };
      return { prefix: record.prefix, name: text(record.name) };
    });
  }
  if (json !== null && typeof json === 'object') {
    return Object.entries(json as Record<string, unknown>).map(([prefix, value]) => ({
      prefix,
      name: value !== null && typeof value === 'object' ? text((value as { name?: unknown }).name) : text(value),
    }));
  }
  throw new PrefixListError('a JSON list is an array of {"prefix", "name"} objects or an object from prefix to name');
}

function fromTable(rows: string[][]): ReferencePrefix[] {
  const header = rows[0]?.map((cell) => cell.trim().toLowerCase()) ?? [];
  const prefixAt = header.indexOf('prefix');
  if (prefixAt === -1) return rows.map((row) => ({ prefix: row[0] ?? '', name: row[1] ?? '' }));
  const nameAt = header.indexOf('name');
  return rows.slice(1).map((row) => ({ prefix: row[prefixAt] ?? '', name: nameAt === -1 ? '' : (row[nameAt] ?? '') }));
}

function splitTsv(source: string): string[][] {
  return source.split(/\r?\n/).filter((line) => line.trim() !== '').map((line) => line.split('\t'));
}

/** RFC 4180: fields separated by commas, quoted fields may hold commas, line breaks and doubled quotes. */
function splitCsv(source: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (quoted) {
      if (c === '"' && source[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && source[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((cell) => cell !== '')) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new PrefixListError('the CSV list ends inside a quoted field');
  row.push(field);
  if (row.some((cell) => cell !== '')) rows.push(row);
  return rows;
}
