import type { Knex } from 'knex';
import type { Logger } from '../../src/lib/logger.js';
import { planLinkCheckRun, runIdForJob, type LinkCheckQueue } from '../../src/link-check/plan-run.js';
import type { LinkCheckPlanResult } from '../../src/queue/link-check.queue.js';

export interface LinkCheckPlanDeps {
  db: Knex;
  queue: LinkCheckQueue;
  /** LINKCHECK_INTERVAL in ms: the run is spread over the time until the next one. */
  spreadMs: number;
  logger?: Logger;
}

/**
 * The schedule's job: plans a run of the whole registry. Its run id comes from the job's id, so a plan job
 * retried after its worker died re-plans the same run and queues nothing twice.
 */
export async function processLinkCheckPlan(deps: LinkCheckPlanDeps, job: { id?: string | undefined }): Promise<LinkCheckPlanResult> {
  const runId = runIdForJob(job.id ?? `plan-${Date.now()}`);
  const started = performance.now();
  const result = await planLinkCheckRun({ db: deps.db, queue: deps.queue }, { runId, prefix: null, spreadMs: deps.spreadMs });
  deps.logger?.info({ ...result, ms: Math.round(performance.now() - started) }, 'link-check run planned');
  return result;
}
