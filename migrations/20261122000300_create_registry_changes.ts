import type { Knex } from 'knex';

/**
 * Every committed change to the registry tables, however it was made (the service, the importer or plain
 * SQL), is logged here by triggers and announced with NOTIFY registry_changes. The resolver keeps its
 * in-memory snapshot current by reading the log past the version it holds: the notification makes that
 * immediate, a periodic version check catches a missed one, and the log says which namespaces to reload
 * so that a change costs the same at 100,000 namespaces as at 1,000.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('registry_changes', (t) => {
    t.bigIncrements('version');
    // 'namespace' (entity_id = namespace id), 'institution' (institution id) or 'location' (country code).
    t.string('entity', 20).notNullable();
    t.string('entity_id', 255).notNullable();
    // The writing transaction's id: versions are taken before commit, so they can become visible out of
    // order; readers use the transaction id against their snapshot's xmin to never miss a late commit.
    t.specificType('txid', 'xid8').notNullable().defaultTo(knex.raw('pg_current_xact_id()'));
    t.specificType('changed_at', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
    t.index(['txid']);
    t.index(['changed_at']);
  });

  await knex.raw(`
    CREATE FUNCTION record_registry_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_TABLE_NAME = 'namespaces' THEN
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO registry_changes (entity, entity_id) VALUES ('namespace', OLD.id::text);
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO registry_changes (entity, entity_id) VALUES ('namespace', NEW.id::text);
        END IF;
      ELSIF TG_TABLE_NAME = 'resources' THEN
        -- A resource belongs to the snapshot entry of its namespace (both of them when it moves).
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO registry_changes (entity, entity_id) VALUES ('namespace', OLD.namespace_id::text);
        END IF;
        IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.namespace_id IS DISTINCT FROM OLD.namespace_id) THEN
          INSERT INTO registry_changes (entity, entity_id) VALUES ('namespace', NEW.namespace_id::text);
        END IF;
      ELSIF TG_TABLE_NAME = 'institutions' THEN
        INSERT INTO registry_changes (entity, entity_id)
          VALUES ('institution', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
      ELSIF TG_TABLE_NAME = 'locations' THEN
        INSERT INTO registry_changes (entity, entity_id)
          VALUES ('location', CASE WHEN TG_OP = 'DELETE' THEN OLD.country_code ELSE NEW.country_code END);
      END IF;
      -- One constant payload: Postgres folds identical notifications of a transaction into one, so a bulk
      -- import wakes the resolver once, at commit.
      PERFORM pg_notify('registry_changes', '');
      RETURN NULL;
    END;
    $$`);
  for (const table of ['namespaces', 'resources', 'institutions', 'locations']) {
    await knex.raw(`
      CREATE TRIGGER ${table}_record_change AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION record_registry_change()`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['namespaces', 'resources', 'institutions', 'locations']) {
    await knex.raw(`DROP TRIGGER IF EXISTS ${table}_record_change ON ${table}`);
  }
  await knex.raw('DROP FUNCTION IF EXISTS record_registry_change()');
  await knex.schema.dropTable('registry_changes');
}
