/**
 * A namespace's description, the one field the resolver's MCP tool `describeNamespace` needs that its
 * snapshot leaves out (core/namespace-search.ts says why): one row by primary key, read only when asked.
 */
import type { Knex } from 'knex';

export async function readNamespaceDescription(db: Knex, namespaceId: number): Promise<string | null> {
  const row = (await db('namespaces').first('description').where({ id: namespaceId })) as { description: string } | undefined;
  return row?.description ?? null;
}
