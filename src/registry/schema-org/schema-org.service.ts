import type { Db } from '../../db/knex.js';
import type { NamespaceRow } from '../../db/tables.js';

/** What the metadata of a namespace is made from. */
export type SchemaOrgNamespace = Pick<NamespaceRow, 'prefix' | 'name' | 'description'>;

/** What the schema.org routes read (built by the registry app on its database). */
export interface SchemaOrgService {
  /** The namespace with this prefix once lower-cased, as the reference looks it up (a mixed-case prefix is not found). */
  namespaceByPrefix(prefix: string): Promise<SchemaOrgNamespace | undefined>;
  namespaceById(id: number): Promise<SchemaOrgNamespace | undefined>;
}

export function createSchemaOrgService(db: Db): SchemaOrgService {
  return {
    namespaceByPrefix: (prefix) => db('namespaces').where({ prefix: prefix.toLowerCase() }).first('prefix', 'name', 'description'),
    namespaceById: (id) => db('namespaces').where({ id }).first('prefix', 'name', 'description'),
  };
}
