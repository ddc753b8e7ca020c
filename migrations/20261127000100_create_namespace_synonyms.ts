import type { Knex } from 'knex';

/**
 * Prefix synonyms (issue 15 item 1): other names a namespace answers to (`ncbitaxon`, `NCBITaxon`, `taxon` for
 * `taxonomy`). Resolution looks prefixes and synonyms up in one case-insensitive name space, so a name is
 * either one namespace's prefix or one namespace's synonym, never both and never twice, whatever its case:
 *
 * - the unique index on lower(synonym) keeps synonyms apart;
 * - two triggers keep synonyms and prefixes apart, each checking the other table. Both take the same
 *   transaction-level advisory lock first, so that a synonym and a prefix of the same name written by two
 *   concurrent transactions cannot both pass their check: the second waits for the first to commit and then
 *   sees its row (READ COMMITTED reads a fresh snapshot per statement). One lock for every name rather than
 *   one per name: a transaction holds a lock once however many rows it writes (an import of 100,000
 *   namespaces would otherwise overflow the lock table), and prefixes and synonyms are written rarely.
 *
 * A clash is raised as unique_violation naming `namespace_synonyms_prefix_clash`, its DETAIL saying which
 * name is taken and by whom (drivers prefix the message with the query; the detail stays as written). Every write is logged in registry_changes as a change of its
 * namespace and announced, like any other namespace edit: the resolver's snapshot, the browse caches and
 * the dataset build follow.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('namespace_synonyms', (t) => {
    t.bigIncrements('id');
    t.bigInteger('namespace_id').notNullable().references('namespaces.id').onDelete('CASCADE').index();
    t.string('synonym', 255).notNullable();
    t.specificType('created', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
  });
  // text_pattern_ops: the same index serves equality and the registry search's LIKE 'abc%'.
  await knex.raw('CREATE UNIQUE INDEX namespace_synonyms_lower_unique ON namespace_synonyms (lower(synonym) text_pattern_ops)');
  // Same characters as a prefix may hold, minus the separators a compact identifier is split at.
  await knex.raw(`ALTER TABLE namespace_synonyms ADD CONSTRAINT namespace_synonyms_text CHECK (synonym ~ '^[^:/\\s]+$')`);

  await knex.raw(`
    CREATE FUNCTION check_synonym_is_no_prefix() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      owner text;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('namespace-names'));
      SELECT prefix INTO owner FROM namespaces WHERE lower(prefix) = lower(NEW.synonym);
      IF owner IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'unique_violation', CONSTRAINT = 'namespace_synonyms_prefix_clash',
          MESSAGE = format('''%s'' is the prefix of namespace ''%s''; it cannot be a synonym', NEW.synonym, owner),
          DETAIL = format('''%s'' is the prefix of namespace ''%s''; it cannot be a synonym', NEW.synonym, owner);
      END IF;
      RETURN NEW;
    END;
    $$`);
  await knex.raw(`
    CREATE TRIGGER namespace_synonyms_no_prefix BEFORE INSERT OR UPDATE OF synonym ON namespace_synonyms
    FOR EACH ROW EXECUTE FUNCTION check_synonym_is_no_prefix()`);

  await knex.raw(`
    CREATE FUNCTION check_prefix_is_no_synonym() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      owner text;
    BEGIN
      PERFORM pg_advisory_xact_lock(hashtext('namespace-names'));
      SELECT n.prefix INTO owner FROM namespace_synonyms s JOIN namespaces n ON n.id = s.namespace_id
        WHERE lower(s.synonym) = lower(NEW.prefix) AND s.namespace_id <> NEW.id;
      IF owner IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'unique_violation', CONSTRAINT = 'namespace_synonyms_prefix_clash',
          MESSAGE = format('''%s'' is a synonym of namespace ''%s''; it cannot be a prefix', NEW.prefix, owner),
          DETAIL = format('''%s'' is a synonym of namespace ''%s''; it cannot be a prefix', NEW.prefix, owner);
      END IF;
      -- A namespace renamed to one of its own synonyms: the synonym gives way to the prefix.
      DELETE FROM namespace_synonyms WHERE namespace_id = NEW.id AND lower(synonym) = lower(NEW.prefix);
      RETURN NEW;
    END;
    $$`);
  await knex.raw(`
    CREATE TRIGGER namespaces_prefix_no_synonym BEFORE INSERT OR UPDATE OF prefix ON namespaces
    FOR EACH ROW EXECUTE FUNCTION check_prefix_is_no_synonym()`);

  await knex.raw(`
    CREATE FUNCTION record_namespace_synonym_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP <> 'INSERT' THEN
        INSERT INTO registry_changes (entity, entity_id) VALUES ('namespace', OLD.namespace_id::text);
      END IF;
      IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.namespace_id IS DISTINCT FROM OLD.namespace_id) THEN
        INSERT INTO registry_changes (entity, entity_id) VALUES ('namespace', NEW.namespace_id::text);
      END IF;
      -- The registry_changes channel and its constant payload, as record_registry_change() sends.
      PERFORM pg_notify('registry_changes', '');
      RETURN NULL;
    END;
    $$`);
  await knex.raw(`
    CREATE TRIGGER namespace_synonyms_record_change AFTER INSERT OR UPDATE OR DELETE ON namespace_synonyms
    FOR EACH ROW EXECUTE FUNCTION record_namespace_synonym_change()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS namespaces_prefix_no_synonym ON namespaces');
  await knex.schema.dropTable('namespace_synonyms');
  await knex.raw('DROP FUNCTION IF EXISTS record_namespace_synonym_change()');
  await knex.raw('DROP FUNCTION IF EXISTS check_prefix_is_no_synonym()');
  await knex.raw('DROP FUNCTION IF EXISTS check_synonym_is_no_prefix()');
}
