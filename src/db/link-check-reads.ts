import type { Knex } from 'knex';
import {
  NOT_FOUND_STREAK_DAYS,
  RELIABILITY_WINDOW_DAYS,
  UNCOUNTED_OUTCOMES,
  UP_OUTCOMES,
  type SampleMeasurement,
} from '../core/reliability.js';

/** Every outcome class a check can have, in the order the health API lists them. */
export { LINK_CHECK_OUTCOMES } from '../../migrations/20261124000100_create_link_checks.js';

interface MeasurementRow {
  resourceId: number;
  up: number;
  counted: number;
  uncounted: number;
  notFoundStreak: boolean;
}

const list = (values: readonly string[]) => values.map(() => '?').join(', ');

/**
 * One aggregate over the sample-URL checks of the last RELIABILITY_WINDOW_DAYS (the (checked_at) index
 * finds them), per resource: working, counted and uncounted checks, and whether the not_found streak that
 * core/reliability.ts defines has lasted NOT_FOUND_STREAK_DAYS. `lastOther` is each resource's last counted
 * check that was not not_found: the streak is the not_found checks after it. Times are the database's
 * (now()), the same clock that stamped the checks.
 */
const MEASUREMENTS_SQL = `
WITH s AS (
  SELECT resource_id, checked_at, outcome FROM link_checks
  WHERE url_kind = 'sample' AND checked_at > now() - make_interval(days => ?) /*resources*/
),
last_other AS (
  SELECT resource_id, max(checked_at) AS at FROM s
  WHERE outcome <> 'not_found' AND outcome NOT IN (${list(UNCOUNTED_OUTCOMES)})
  GROUP BY resource_id
)
SELECT s.resource_id AS "resourceId",
  (count(*) FILTER (WHERE s.outcome IN (${list(UP_OUTCOMES)})))::int AS up,
  (count(*) FILTER (WHERE s.outcome NOT IN (${list(UNCOUNTED_OUTCOMES)})))::int AS counted,
  (count(*) FILTER (WHERE s.outcome IN (${list(UNCOUNTED_OUTCOMES)})))::int AS uncounted,
  coalesce(
    min(s.checked_at) FILTER (WHERE s.outcome = 'not_found' AND (lo.at IS NULL OR s.checked_at > lo.at))
      <= now() - make_interval(days => ?),
    false
  ) AS "notFoundStreak"
FROM s LEFT JOIN last_other lo USING (resource_id)
GROUP BY s.resource_id`;

/**
 * The sample measurements (core/reliability.ts) of every resource with checks in the window, or of the
 * given resources only.
 */
export async function readSampleMeasurements(
  db: Knex | Knex.Transaction,
  resourceIds?: readonly number[],
): Promise<Map<number, SampleMeasurement>> {
  if (resourceIds?.length === 0) return new Map();
  const only = resourceIds !== undefined;
  const sql = MEASUREMENTS_SQL.replace('/*resources*/', only ? `AND resource_id IN (${resourceIds.map(() => '?').join(', ')})` : '');
  const bindings: Knex.RawBinding[] = [RELIABILITY_WINDOW_DAYS];
  if (only) bindings.push(...resourceIds);
  bindings.push(...UNCOUNTED_OUTCOMES, ...UP_OUTCOMES, ...UNCOUNTED_OUTCOMES, ...UNCOUNTED_OUTCOMES, NOT_FOUND_STREAK_DAYS);
  const { rows } = await db.raw<{ rows: MeasurementRow[] }>(sql, bindings);
  const measurements = new Map<number, SampleMeasurement>();
  for (const row of rows) {
    measurements.set(row.resourceId, {
      up: row.up,
      counted: row.counted,
      uncounted: row.uncounted,
      notFoundStreak: row.notFoundStreak,
    });
  }
  return measurements;
}
