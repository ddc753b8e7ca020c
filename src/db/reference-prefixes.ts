/**
 * Other registries' prefixes (reference_prefixes, issue 15 item 6): a source's list is replaced as a whole,
 * and a requested prefix is looked up among every source's, whatever its case.
 */
import type { Knex } from 'knex';
import type { ReferencePrefix } from '../core/reference-prefix-list.js';
import type { ReferencePrefixRow } from './tables.js';

const CHUNK = 1000;

/** Makes `prefixes` the whole list of `source`, in one transaction; returns how many rows it replaced. */
export async function replaceReferencePrefixes(db: Knex, source: string, prefixes: readonly ReferencePrefix[]): Promise<{ removed: number; loaded: number }> {
  return db.transaction(async (trx) => {
    const removed = await trx('reference_prefixes').where({ source }).del();
    for (let i = 0; i < prefixes.length; i += CHUNK) {
      await trx('reference_prefixes').insert(prefixes.slice(i, i + CHUNK).map((p) => ({ source, prefix: p.prefix, name: p.name })));
    }
    return { removed, loaded: prefixes.length };
  });
}

/** Every source's entry for this prefix, whatever its case, by source. */
export function findReferencePrefixes(db: Knex, prefix: string): Promise<Pick<ReferencePrefixRow, 'source' | 'prefix' | 'name'>[]> {
  return db('reference_prefixes').select('source', 'prefix', 'name').whereRaw('lower(prefix) = lower(?)', [prefix]).orderBy('source');
}

export interface ReferenceSource {
  source: string;
  prefixes: number;
  loaded: Date;
}

/** The sources loaded, each with its size and when it was loaded. */
export async function listReferenceSources(db: Knex): Promise<ReferenceSource[]> {
  const rows = (await db('reference_prefixes')
    .select('source')
    .count({ prefixes: '*' })
    .max({ loaded: 'loaded' })
    .groupBy('source')
    .orderBy('source')) as unknown as { source: string; prefixes: string | number; loaded: Date }[];
  return rows.map((row) => ({ source: row.source, prefixes: Number(row.prefixes), loaded: row.loaded }));
}
