/**
 * DATABASE_READ_URL: a Postgres cluster of the test's own with a hot standby in streaming replication
 * (pg_basebackup -R). The registry area's browse API and the resolver's snapshot read from the standby;
 * writes and the change notifications stay on the primary. With the standby's replay paused, both areas
 * keep answering from what the standby has (so that is where they read), although the primary announced a
 * change; once replay resumes, they show it within a second or two, without waiting for a periodic check.
 */
import pg from 'pg';
import { startStack, type AreaStack } from '../support/areas.js';
import { startOwnPostgres, startOwnReplica, type OwnPostgres } from '../support/postgres-cluster.js';
import { stopProcess } from '../support/processes.js';
import { describeRequiring, postgresReplicaBinaries, postgresServerBinaries } from '../support/requirements.js';
import { startAreaProcess, type AreaProcess } from '../support/service-processes.js';
import { waitFor } from '../support/wait.js';

const LONG = 90_000;
const SAMPLE_ID = '/orcid:0000-0002-5355-2576';
const OLD = 'ORCID at Bethesda';
const NEW = 'ORCID at Bethesda, as the primary has it while the replica waits';

async function onReplica<T>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

describeRequiring([postgresServerBinaries(), postgresReplicaBinaries()], 'DATABASE_READ_URL: reads from a streaming replica', () => {
  let primary: OwnPostgres;
  let replica: OwnPostgres;
  let t: AreaStack;
  let replicaUrl: string;
  let registry: AreaProcess;
  let resolver: AreaProcess;

  const browsed = async () =>
    ((await (await fetch(`${registry.base}/restApi/resources/1102`, { headers: { Accept: 'application/hal+json' } })).json()) as { description: string })
      .description;
  const resolved = async () =>
    ((await (await fetch(`${resolver.base}${SAMPLE_ID}`)).json()) as { payload: { resolvedResources: { description: string }[] } }).payload
      .resolvedResources[0]!.description;

  beforeAll(async () => {
    primary = await startOwnPostgres();
    replica = await startOwnReplica(primary);
    t = await startStack('read_replica', { postgresUrl: primary.url('postgres') });
    replicaUrl = replica.url(t.name);
    // The database and the sample reach the standby by replication.
    await waitFor(async () => Number((await onReplica<{ n: number }>(replicaUrl, 'SELECT count(*) AS n FROM namespaces'))[0]?.n) === 22, {
      timeoutMs: 20_000,
      what: 'the sample registry on the replica',
    });
    // A periodic check far off: what the resolver sees promptly, it saw through a notification.
    const env = { DATABASE_READ_URL: replicaUrl, SNAPSHOT_CHECK_INTERVAL_MS: '600000' };
    [registry, resolver] = await Promise.all([startAreaProcess('registry', t, env), startAreaProcess('resolver', t, env)]);
  }, LONG);

  afterAll(async () => {
    await stopProcess(registry);
    await stopProcess(resolver);
    if (t) await t.close();
    replica?.destroy();
    primary?.destroy();
  }, LONG);

  it('is a standby, and the areas are ready with it (the registry checks it)', async () => {
    expect(await onReplica<{ standby: boolean }>(replicaUrl, 'SELECT pg_is_in_recovery() AS standby')).toEqual([{ standby: true }]);
    const ready = (await (await fetch(`${registry.base}/health/ready`)).json()) as { payload: { checks: Record<string, string> } };
    expect(ready.payload.checks).toMatchObject({ postgres: 'ok', 'postgres-replica': 'ok' });
    expect(await browsed()).toBe(OLD);
    expect(await resolved()).toBe(OLD);
  });

  it('browses and resolves what the replica has, and shows a change once the replica replays it', async () => {
    await onReplica(replicaUrl, 'SELECT pg_wal_replay_pause()');
    const [paused] = await onReplica<{ at: string }>(replicaUrl, 'SELECT now()::text AS at');
    await t.db('resources').where({ id: 1102 }).update({ description: NEW });
    expect((await t.db('resources').where({ id: 1102 }).first('description'))!.description).toBe(NEW);

    // The primary announced the change at once; the areas wait for the replica (up to 5 s), then read it.
    // Waiting is polling the replica's replay position (db/read-db.ts): once two connections (one an area
    // each, as a rule) have polled since the change, the areas have heard of it and still answer the old.
    await waitFor(
      async () => {
        const [polling] = await onReplica<{ n: string }>(
          replicaUrl,
          `SELECT count(DISTINCT pid) AS n FROM pg_stat_activity
            WHERE query LIKE '%pg_last_wal_replay_lsn() >=%' AND query_start > '${paused!.at}'::timestamptz AND pid <> pg_backend_pid()`,
        );
        return Number(polling!.n) >= 2;
      },
      { timeoutMs: 5000, what: 'the areas waiting for the replica to replay the change' },
    );
    expect(await browsed()).toBe(OLD);
    expect(await resolved()).toBe(OLD);

    // How soon the change shows after the replay resumes is not asserted: a bound in milliseconds fails
    // whenever the machine is busy.
    await onReplica(replicaUrl, 'SELECT pg_wal_replay_resume()');
    await waitFor(async () => (await browsed()) === NEW, { timeoutMs: 5000, what: 'the browse API showing the change' });
    await waitFor(async () => (await resolved()) === NEW, { timeoutMs: 5000, what: 'the resolver showing the change' });
  }, LONG);

  it('keeps its change listener on the primary (a standby cannot LISTEN)', async () => {
    const listening = await t.db.raw<{ rows: { n: string }[] }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = ? AND query LIKE 'LISTEN%'", [t.name]);
    // The registry's and the resolver's listeners (the resolver LISTENs on two channels, one after the other).
    expect(Number(listening.rows[0]!.n)).toBeGreaterThanOrEqual(2);
    const onStandby = await onReplica<{ n: string }>(replicaUrl, "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'curie-resolver'");
    expect(Number(onStandby[0]!.n)).toBeGreaterThan(0);
  });
});
