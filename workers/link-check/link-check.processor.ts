import type { Knex } from 'knex';
import { storeLinkCheck } from '../../src/db/link-checks.js';
import { urlRefusal, type LinkFetchResult } from '../../src/lib/http-client.js';
import type { Logger } from '../../src/lib/logger.js';
import { classifyCheck, headSettles, honouredRetryAfter, skippedCheck, type ClassifiedCheck } from '../../src/link-check/classify-check.js';
import { checkLinkCheckJob, type LinkCheckJob, type LinkCheckJobResult } from '../../src/queue/link-check.queue.js';
import { refuseUnprocessable } from '../job-family.js';
import type { HostLeases } from './host-lease.js';

/** How many times a Retry-After may put one check off before its answer is taken as the result. */
export const LINK_CHECK_MAX_DEFERRALS = 2;

export interface LinkCheckProcessorDeps {
  db: Knex;
  /** fetchForLinkCheck bound to the settings. */
  fetch: (url: string, method: 'GET' | 'HEAD') => Promise<LinkFetchResult>;
  leases: Pick<HostLeases, 'acquire' | 'hold'>;
  /** Called after a check is stored (announces the batch, debounced). */
  onStored: () => void;
  logger?: Logger;
  now?: () => number;
}

/**
 * What a run of the processor comes to: the check stored (or found stored already), or not yet, to be taken
 * up again at `at` with `data` (the worker moves the job to the delayed set: no waiting inside a job).
 */
export type LinkCheckStep = { done: LinkCheckJobResult } | { later: { at: number; data: Partial<LinkCheckJob> } };

/** Contenders for one host do not all come back at the same millisecond. */
const jitter = () => Math.floor(Math.random() * 200);

/**
 * One link check (issue 12): HEAD, then GET when HEAD did not settle it, each request a turn at the host's
 * politeness lease (HostLeases); a 429/503 with a Retry-After of at most a minute puts the check off that long
 * (and holds the host for every worker), at most LINK_CHECK_MAX_DEFERRALS times. The result is classified and
 * stored once per (run, resource, URL kind): a retried job never stores or counts a check twice. A URL that
 * does not work is a result, never a thrown error; only infrastructure failures throw, and BullMQ retries
 * those.
 */
export async function processLinkCheck(deps: LinkCheckProcessorDeps, job: { data: LinkCheckJob }): Promise<LinkCheckStep> {
  refuseUnprocessable(checkLinkCheckJob(job.data));
  const { data } = job;
  const now = deps.now ?? Date.now;
  if (data.url === null) return store(deps, data, '', skippedCheck(data.skipReason ?? 'no URL'));
  const url = data.url;
  const refusal = urlRefusal(url);
  if (refusal) return store(deps, data, url, skippedCheck(refusal));
  const host = new URL(url).host;
  let phase = data.phase ?? 'head';
  const deferrals = data.deferrals ?? 0;
  for (;;) {
    const lease = await deps.leases.acquire(host);
    if (!lease.granted) return { later: { at: now() + lease.waitMs + jitter(), data: { phase, deferrals } } };
    let result: LinkFetchResult;
    try {
      result = await deps.fetch(url, phase === 'head' ? 'HEAD' : 'GET');
    } finally {
      await lease.release();
    }
    const retryAfter = honouredRetryAfter(result, now());
    if (retryAfter !== null) await deps.leases.hold(host, retryAfter);
    if (retryAfter !== null && deferrals < LINK_CHECK_MAX_DEFERRALS) {
      deps.logger?.debug({ url, status: result.ok ? result.status : null, retryAfter }, 'link check put off by Retry-After');
      return { later: { at: now() + retryAfter, data: { phase: 'get', deferrals: deferrals + 1 } } };
    }
    if (phase === 'head' && !headSettles(result)) {
      phase = 'get';
      continue;
    }
    return store(deps, data, url, classifyCheck(result, data.isProtected));
  }
}

async function store(deps: LinkCheckProcessorDeps, data: LinkCheckJob, url: string, check: ClassifiedCheck): Promise<LinkCheckStep> {
  const stored = await storeLinkCheck(deps.db, { runId: data.runId, resourceId: data.resourceId, urlKind: data.urlKind, url, ...check });
  if (stored !== 'duplicate') deps.onStored();
  deps.logger?.debug({ url, resourceId: data.resourceId, urlKind: data.urlKind, outcome: check.outcome, stored }, 'link checked');
  return { done: { stored: stored === 'stored', outcome: check.outcome } };
}
