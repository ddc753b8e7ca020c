import type { Knex } from 'knex';

/**
 * The change feed (GET /changes, registry/changes/) reads the registry_changes log; the log said only which
 * snapshot entry to reload. For a reader it also needs what happened and to what, kept with the row because
 * a deleted namespace can no longer be looked up: the operation, the table written, the row's id and the
 * namespace's prefix at the time (for a resource, its namespace's). Rows logged by other triggers (and
 * rows older than this migration) leave them null; the feed then says only "this namespace changed".
 *
 * The feed pages by (txid, version), only over transactions older than every running one (see
 * change-feed.service.ts), hence the index.
 */
const COLUMNS = ['operation', 'source_table', 'record_id', 'prefix'] as const;

const recordChange = (withDetails: boolean) => {
  // The original function's body with the detail columns added to each insert, or as it was (down).
  const columns = withDetails ? 'entity, entity_id, operation, source_table, record_id, prefix' : 'entity, entity_id';
  const values = (entity: string, id: string, recordId: string, prefix: string) =>
    withDetails ? `'${entity}', ${id}, TG_OP, TG_TABLE_NAME, ${recordId}, ${prefix}` : `'${entity}', ${id}`;
  // The original logged an update twice under the same id; with details, once, unless the prefix changed
  // (the feed then shows the namespace under its old and its new prefix).
  const newNamespaceRowWhen = withDetails ? " AND (TG_OP = 'INSERT' OR NEW.prefix IS DISTINCT FROM OLD.prefix)" : '';
  const resourcePrefix = (row: string) => `(SELECT prefix FROM namespaces WHERE id = ${row}.namespace_id)`;
  return `
    CREATE OR REPLACE FUNCTION record_registry_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'namespaces' THEN
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO registry_changes (${columns}) VALUES (${values('namespace', 'OLD.id::text', 'OLD.id::text', 'OLD.prefix')});
        END IF;
        IF TG_OP <> 'DELETE'${newNamespaceRowWhen} THEN
          INSERT INTO registry_changes (${columns}) VALUES (${values('namespace', 'NEW.id::text', 'NEW.id::text', 'NEW.prefix')});
        END IF;
      ELSIF TG_TABLE_NAME = 'resources' THEN
        -- A resource belongs to the snapshot entry of its namespace (both of them when it moves).
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO registry_changes (${columns})
            VALUES (${values('namespace', 'OLD.namespace_id::text', 'OLD.id::text', resourcePrefix('OLD'))});
        END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.namespace_id IS DISTINCT FROM OLD.namespace_id) THEN
          INSERT INTO registry_changes (${columns})
            VALUES (${values('namespace', 'NEW.namespace_id::text', 'NEW.id::text', resourcePrefix('NEW'))});
        END IF;
      ELSIF TG_TABLE_NAME = 'institutions' THEN
        INSERT INTO registry_changes (${columns})
          VALUES (${values('institution', '(CASE WHEN TG_OP = \'DELETE\' THEN OLD.id ELSE NEW.id END)::text', '(CASE WHEN TG_OP = \'DELETE\' THEN OLD.id ELSE NEW.id END)::text', 'NULL')});
      ELSIF TG_TABLE_NAME = 'locations' THEN
        INSERT INTO registry_changes (${columns})
          VALUES (${values('location', 'CASE WHEN TG_OP = \'DELETE\' THEN OLD.country_code ELSE NEW.country_code END', 'CASE WHEN TG_OP = \'DELETE\' THEN OLD.country_code ELSE NEW.country_code END', 'NULL')});
      END IF;
      -- One constant payload: Postgres folds identical notifications of a transaction into one, so a bulk
      -- import wakes the resolver once, at commit.
      PERFORM pg_notify('registry_changes', '');
      RETURN NULL;
    END;
    $$`;
};

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('registry_changes', (t) => {
    // 'INSERT', 'UPDATE' or 'DELETE' (TG_OP).
    t.string('operation', 6);
    // 'namespaces', 'resources', 'institutions' or 'locations' (TG_TABLE_NAME).
    t.string('source_table', 40);
    t.string('record_id', 255);
    t.string('prefix', 255);
    t.index(['txid', 'version'], 'registry_changes_txid_version_index');
  });
  await knex.raw(recordChange(true));
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(recordChange(false));
  await knex.schema.alterTable('registry_changes', (t) => {
    t.dropIndex(['txid', 'version'], 'registry_changes_txid_version_index');
    for (const column of COLUMNS) t.dropColumn(column);
  });
}
