import type { Knex } from 'knex';
import * as createLocations from './20261122000100_create_locations.js';
import * as createRegistryTables from './20261122000200_create_registry_tables.js';
import * as createRegistryChanges from './20261122000300_create_registry_changes.js';
import * as createServiceSettings from './20261122000400_create_service_settings.js';
import * as createDatasetBuilds from './20261122000500_create_dataset_builds.js';
import * as createUsageDaily from './20261122000600_create_usage_daily.js';
import * as addBrowseIndexes from './20261122000700_add_browse_indexes.js';
import * as createRegistrationTables from './20261122000800_create_registration_tables.js';
import * as createCurationSupport from './20261122000900_create_curation_support.js';
import * as storeIdempotencyAnswerText from './20261123000100_store_idempotency_answer_text.js';
import * as createLinkChecks from './20261124000100_create_link_checks.js';
import * as createCurationEvents from './20261125000100_create_curation_events.js';
import * as createCurationWarnings from './20261125000200_create_curation_warnings.js';
import * as addNamespaceSearchIndexes from './20261125000300_add_namespace_search_indexes.js';
import * as createCuratorSessions from './20261126000100_create_curator_sessions.js';
import * as createNamespaceSynonyms from './20261127000100_create_namespace_synonyms.js';
import * as createReferencePrefixes from './20261127000200_create_reference_prefixes.js';
import * as addNamespaceLuiRules from './20261127000210_add_namespace_lui_rules.js';
import * as addRegistryChangeDetails from './20261127000400_add_registry_change_details.js';
import * as createNamespaceUsageTotals from './20261201000100_create_namespace_usage_totals.js';
import * as addNamespaceSuffixPassthrough from './20261202000500_add_namespace_suffix_passthrough.js';
import * as createRedosVerdicts from './20261203000100_create_redos_verdicts.js';

/**
 * Every migration, in order. Knex records the names given here (no file extension), so the same history
 * holds whether migrations run from the compiled .js files (npm start) or the .ts sources (jest).
 * A new migration is a new file here plus one line below.
 */
const migrations: Record<string, Knex.Migration> = {
  '20261122000100_create_locations': createLocations,
  '20261122000200_create_registry_tables': createRegistryTables,
  '20261122000300_create_registry_changes': createRegistryChanges,
  '20261122000400_create_service_settings': createServiceSettings,
  '20261122000500_create_dataset_builds': createDatasetBuilds,
  '20261122000600_create_usage_daily': createUsageDaily,
  '20261122000700_add_browse_indexes': addBrowseIndexes,
  '20261122000800_create_registration_tables': createRegistrationTables,
  '20261122000900_create_curation_support': createCurationSupport,
  '20261123000100_store_idempotency_answer_text': storeIdempotencyAnswerText,
  '20261124000100_create_link_checks': createLinkChecks,
  '20261125000100_create_curation_events': createCurationEvents,
  '20261125000200_create_curation_warnings': createCurationWarnings,
  '20261125000300_add_namespace_search_indexes': addNamespaceSearchIndexes,
  '20261126000100_create_curator_sessions': createCuratorSessions,
  '20261127000100_create_namespace_synonyms': createNamespaceSynonyms,
  '20261127000200_create_reference_prefixes': createReferencePrefixes,
  '20261127000210_add_namespace_lui_rules': addNamespaceLuiRules,
  '20261127000400_add_registry_change_details': addRegistryChangeDetails,
  '20261201000100_create_namespace_usage_totals': createNamespaceUsageTotals,
  '20261202000500_add_namespace_suffix_passthrough': addNamespaceSuffixPassthrough,
  '20261203000100_create_redos_verdicts': createRedosVerdicts,
};

export const migrationSource: Knex.MigrationSource<string> = {
  // Sorted by their timestamped names, whatever order the lines above are in.
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`Unknown migration ${name}`);
    return migration;
  },
};
