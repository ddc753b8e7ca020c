import type { Db } from '../../db/knex.js';
import { LINK_CHECK_OUTCOMES, readSampleMeasurements } from '../../db/link-check-reads.js';
import type { LinkCheckOutcome, LinkCheckUrlKind } from '../../db/tables.js';
import type { CheckRecord, HealthApiService, ResourceHealth } from '../model/link-health.js';
import { UNCOUNTED_OUTCOMES, UP_OUTCOMES } from '../../core/reliability.js';

/** How many of a resource's checks the health API lists. */
export const RECENT_CHECKS = 30;

interface ResourceKey {
  id: number;
  mirId: string;
  prefix: string;
}

const CHECK_COLUMNS = `resource_id AS "resourceId", url_kind AS "urlKind", url, run_id AS "runId", checked_at AS "checkedAt",
  http_status AS "httpStatus", latency_ms AS "latencyMs", final_url AS "finalUrl", outcome, detail`;

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');
const POSTGRES_INT_MAX = 2 ** 31 - 1;

function emptyCounts(): Record<LinkCheckOutcome, number> {
  return Object.fromEntries(LINK_CHECK_OUTCOMES.map((outcome) => [outcome, 0])) as Record<LinkCheckOutcome, number>;
}

export function createHealthApiService(db: Db): HealthApiService {
  const resourceKeys = () =>
    db('resources as r').join('namespaces as n', 'n.id', 'r.namespaceId').select('r.id', 'r.mirId', 'n.prefix').orderBy('r.id');

  /** Everything about the given resources, four queries whatever their number. */
  async function healthOf(keys: ResourceKey[]): Promise<ResourceHealth[]> {
    if (keys.length === 0) return [];
    const ids = keys.map((k) => k.id);
    const list = placeholders(ids);
    const { rows: marked } = await db.raw<{ rows: (CheckRecord & { mark: string })[] }>(
      `(SELECT DISTINCT ON (resource_id, url_kind) 'latest' AS mark, ${CHECK_COLUMNS} FROM link_checks
         WHERE resource_id IN (${list}) ORDER BY resource_id, url_kind, checked_at DESC, id DESC)
       UNION ALL
       (SELECT DISTINCT ON (resource_id) 'success' AS mark, ${CHECK_COLUMNS} FROM link_checks
         WHERE resource_id IN (${list}) AND outcome IN (${placeholders(UP_OUTCOMES)}) ORDER BY resource_id, checked_at DESC, id DESC)
       UNION ALL
       (SELECT DISTINCT ON (resource_id) 'failure' AS mark, ${CHECK_COLUMNS} FROM link_checks
         WHERE resource_id IN (${list}) AND outcome NOT IN (${placeholders([...UP_OUTCOMES, ...UNCOUNTED_OUTCOMES])})
         ORDER BY resource_id, checked_at DESC, id DESC)`,
      [...ids, ...ids, ...UP_OUTCOMES, ...ids, ...UP_OUTCOMES, ...UNCOUNTED_OUTCOMES],
    );
    const { rows: recent } = await db.raw<{ rows: CheckRecord[] }>(
      `SELECT ${CHECK_COLUMNS} FROM (
         SELECT *, row_number() OVER (PARTITION BY resource_id ORDER BY checked_at DESC, id DESC) AS n
         FROM link_checks WHERE resource_id IN (${list})
       ) c WHERE n <= ? ORDER BY resource_id, checked_at DESC, id DESC`,
      [...ids, RECENT_CHECKS],
    );
    const measurements = await readSampleMeasurements(db, ids);
    const byId = new Map<number, ResourceHealth>();
    const health = keys.map((k) => {
      const entry: ResourceHealth = {
        resourceId: k.id,
        mirId: k.mirId,
        namespacePrefix: k.prefix,
        latest: {},
        lastSuccess: null,
        lastFailure: null,
        recent: [],
        measurement: measurements.get(k.id),
      };
      byId.set(k.id, entry);
      return entry;
    });
    for (const { mark, ...check } of marked) {
      const entry = byId.get(check.resourceId)!;
      if (mark === 'latest') entry.latest[check.urlKind] = check;
      else if (mark === 'success') entry.lastSuccess = check;
      else entry.lastFailure = check;
    }
    for (const check of recent) byId.get(check.resourceId)!.recent.push(check);
    return health;
  }

  return {
    async resourceHealth(id) {
      // Larger ids cannot be in an integer column, and Postgres would refuse to compare them with one.
      if (id > POSTGRES_INT_MAX) return undefined;
      const key = (await resourceKeys().where('r.id', id).first()) as ResourceKey | undefined;
      return key ? (await healthOf([key]))[0] : undefined;
    },

    async namespaceHealth(prefix) {
      const namespace = await db('namespaces').whereRaw('lower(prefix) = lower(?)', [prefix]).first('id', 'prefix');
      if (!namespace) return undefined;
      const keys = (await resourceKeys().where('r.namespaceId', namespace.id)) as ResourceKey[];
      return { namespacePrefix: namespace.prefix, resources: await healthOf(keys) };
    },

    async summary() {
      const { rows } = await db.raw<{ rows: { urlKind: LinkCheckUrlKind; outcome: LinkCheckOutcome; count: number }[] }>(
        `SELECT url_kind AS "urlKind", outcome, count(*)::int AS count FROM (
           SELECT DISTINCT ON (resource_id, url_kind) url_kind, outcome FROM link_checks
           ORDER BY resource_id, url_kind, checked_at DESC, id DESC
         ) latest GROUP BY url_kind, outcome`,
      );
      const latestByUrlKind = { sample: emptyCounts(), home: emptyCounts() };
      for (const row of rows) latestByUrlKind[row.urlKind][row.outcome] = row.count;
      const run = await db('link_check_runs').whereNotNull('finishedAt').orderBy('finishedAt', 'desc').first('finishedAt');
      return { latestByUrlKind, lastRunFinishedAt: run?.finishedAt ?? null };
    },
  };
}
