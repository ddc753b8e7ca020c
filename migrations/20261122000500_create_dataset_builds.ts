import type { Knex } from 'knex';

/**
 * One row per run of the resolver dataset build (src/dataset/dataset-builds.ts): operators see
 * when the served file was made, from which registry version, and why a build failed. A worker killed
 * mid-build leaves its row 'running'; the next build marks it 'failed' with error 'abandoned'.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dataset_builds', (t) => {
    t.bigIncrements('id');
    t.specificType('started_at', 'timestamptz(3)').notNullable().defaultTo(knex.fn.now());
    t.specificType('finished_at', 'timestamptz(3)');
    // 'running', 'succeeded', 'failed', or 'skipped' (the registry had not changed since the served build).
    t.string('status', 20).notNullable().defaultTo('running');
    // Why the build was asked for: 'nightly', 'registry-change', 'first-request' (DatasetBuildJob.reason).
    t.string('reason', 40).notNullable();
    // max(registry_changes.version) in the snapshot the build read.
    t.bigInteger('registry_version');
    t.integer('namespace_count');
    t.integer('resource_count');
    // Size of the plain (uncompressed, not rewritten) dataset file.
    t.bigInteger('bytes');
    t.text('error');
    // host:pid of the worker process that ran it.
    t.string('worker', 300).notNullable();
    t.index(['status']);
    t.index(['started_at']);
  });
  await knex.raw(
    "ALTER TABLE dataset_builds ADD CONSTRAINT dataset_builds_status_check CHECK (status IN ('running', 'succeeded', 'failed', 'skipped'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dataset_builds');
}
