import { randomBytes } from 'node:crypto';
import type { Db } from './knex.js';

/** Returns the stored value, creating it once (first writer wins, so concurrent processes agree). */
export async function getOrCreateSetting(db: Db, name: string, create: () => string): Promise<string> {
  await db('service_settings').insert({ name, value: create() }).onConflict('name').ignore();
  // Inserted above unless another process's insert came first: the row is there either way.
  const row = await db('service_settings').where({ name }).first('value');
  return row!.value;
}

export function usageHashKey(db: Db): Promise<string> {
  return getOrCreateSetting(db, 'usage_visitor_hash_key', () => randomBytes(32).toString('hex'));
}
