import type { Knex } from 'knex';
import { countLinkCheckDone } from './link-check-runs.js';
import type { LinkCheckOutcome, LinkCheckUrlKind } from './tables.js';

export interface LinkCheckInsert {
  runId: string;
  resourceId: number;
  urlKind: LinkCheckUrlKind;
  url: string;
  httpStatus: number | null;
  latencyMs: number | null;
  finalUrl: string | null;
  outcome: LinkCheckOutcome;
  detail: string | null;
}

/** What became of a check handed to storeLinkCheck. */
export type StoreOutcome = 'stored' | 'duplicate' | 'resource-gone';

/**
 * Stores one check and counts it in its run, in one transaction. A check of a URL already stored in the run
 * (a retried job whose first attempt stored it before its worker died) is neither stored nor counted again.
 * A resource deleted since the run was planned has nothing to store, but its check is counted done, or the
 * run would never finish.
 */
export async function storeLinkCheck(db: Knex, check: LinkCheckInsert): Promise<StoreOutcome> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw<{ rows: { inserted: boolean }[] }>(
      `WITH inserted AS (
         INSERT INTO link_checks (run_id, resource_id, url_kind, url, http_status, latency_ms, final_url, outcome, detail)
         SELECT :runId, r.id, :urlKind, :url, :httpStatus, :latencyMs, :finalUrl, :outcome, :detail FROM resources r WHERE r.id = :resourceId
         ON CONFLICT (run_id, resource_id, url_kind) DO NOTHING
         RETURNING id)
       SELECT EXISTS (SELECT 1 FROM inserted) AS inserted, EXISTS (SELECT 1 FROM resources WHERE id = :resourceId) AS "resourceExists"`,
      { ...check },
    );
    const { inserted, resourceExists } = rows[0] as { inserted: boolean; resourceExists: boolean };
    if (!inserted && resourceExists) return 'duplicate';
    await countLinkCheckDone(trx, check.runId);
    return inserted ? 'stored' : 'resource-gone';
  });
}
