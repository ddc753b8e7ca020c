/**
 * The importer's part in canonical LUIs (core/lui-rules.ts): each imported namespace gets the rules its
 * pattern calls for, stored with it, where it has none yet or its pattern or prefix changed. Rules a curator
 * set on a namespace whose pattern the file leaves alone are kept, so a re-import writes nothing.
 */
import type { Knex } from 'knex';
import { deriveLuiRules } from '../core/lui-rules.js';

export interface ImportedNamespace {
  /** The namespace's id after the upsert. */
  id: number;
  prefix: string;
  pattern: string;
  /** The row as it was before the import; undefined for a namespace the import created. */
  before: Readonly<Record<string, unknown>> | undefined;
}

export async function storeDerivedLuiRules(trx: Knex.Transaction, namespaces: readonly ImportedNamespace[]): Promise<number> {
  const ids: number[] = [];
  const rules: string[] = [];
  for (const ns of namespaces) {
    const { before } = ns;
    const stale = before === undefined || before.luiRules == null || before.pattern !== ns.pattern || before.prefix !== ns.prefix;
    if (!stale) continue;
    ids.push(ns.id);
    rules.push(JSON.stringify(deriveLuiRules(ns)));
  }
  if (ids.length === 0) return 0;
  // One statement for the whole registry: a first import writes every namespace's rules.
  await trx.raw(
    'UPDATE namespaces AS n SET lui_rules = v.rules::jsonb FROM unnest(?::bigint[], ?::text[]) AS v(id, rules) WHERE n.id = v.id',
    [ids, rules],
  );
  return ids.length;
}
