import { formatReferenceDate } from './dates.js';

/**
 * A wire record written from a row's columns: its JSON keys in their order (JSON keeps insertion order, so
 * the list is the wire order), those that are the row's `fields` copied from it with dates written as the
 * reference writes them. The keys are laid out once and each record starts as a copy of that layout, so
 * every record of a kind has one object shape and is filled by plain stores. Keys that are not columns
 * (links, nested lists) stand in the layout for the caller to set. The browse API's items, the curators'
 * requests and the dataset's namespaces are written this way.
 */
export class WireRecord<Column extends string> {
  private readonly layout: Readonly<Record<string, unknown>>;

  constructor(
    private readonly fields: readonly Column[],
    keys: readonly string[] = fields,
  ) {
    this.layout = Object.fromEntries(keys.map((key) => [key, null]));
  }

  present(row: Readonly<Record<Column, unknown>>): Record<string, unknown> {
    const record = { ...this.layout };
    for (const field of this.fields) {
      const value = row[field];
      record[field] = value instanceof Date ? formatReferenceDate(value) : value;
    }
    return record;
  }
}
