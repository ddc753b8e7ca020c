import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { Knex } from 'knex';
import { buildSampleUrl } from '../core/url-pattern.js';
import { createLinkCheckRun, setLinkCheckRunPlanned } from '../db/link-check-runs.js';
import { LINK_CHECK_JOB_NAME, linkCheckJobId, linkCheckJobOptions, type LinkCheckJob } from '../queue/link-check.queue.js';

/** Jobs per addBulk: a run of the whole registry is queued in a few round trips, and never held whole in memory. */
export const PLAN_CHUNK_JOBS = 500;

export interface PlanRunOptions {
  runId: string;
  /** Only this namespace (any case), or the whole registry. */
  prefix: string | null;
  /** The checks' start times are spread evenly over this long from now. */
  spreadMs: number;
}

/** The queue the run's jobs go to (a Queue of link-check, or anything that adds them in bulk like one). */
export type LinkCheckQueue = Pick<Queue<LinkCheckJob>, 'addBulk'>;

interface ResourceToCheck {
  id: number;
  urlPattern: string;
  sampleId: string | null;
  resourceHomeUrl: string;
  protectedUrls: boolean;
  prefix: string;
  namespaceSampleId: string;
  namespaceEmbeddedInLui: boolean;
}

/** A run id nobody else makes: a manual run's. Scheduled runs take theirs from the schedule's job (runIdForJob). */
export function newManualRunId(now: Date = new Date()): string {
  return `manual-${now.getTime()}-${randomBytes(3).toString('hex')}`;
}

/**
 * The run id of a scheduled plan job: its job id (unique per scheduled time), in the characters a job id of
 * the run may carry, so that a retried plan job re-plans the same run and adds no job twice.
 */
export function runIdForJob(jobId: string): string {
  return jobId.replace(/[^A-Za-z0-9_.-]+/g, '-').slice(-64);
}

/** Non-deprecated resources of non-deprecated namespaces (of `prefix` only, when given). */
function resourcesToCheck(db: Knex, prefix: string | null): Knex.QueryBuilder {
  const query = db('resources as r')
    .join('namespaces as n', 'n.id', 'r.namespaceId')
    .where('r.deprecated', false)
    .andWhere('n.deprecated', false);
  if (prefix !== null) void query.whereRaw('lower(n.prefix) = lower(?)', [prefix]);
  return query;
}

/** The two checks of a resource: its sample URL and its home URL. */
function checksOf(resource: ResourceToCheck, runId: string): LinkCheckJob[] {
  const base = { runId, resourceId: resource.id, isProtected: resource.protectedUrls };
  const sampleId = resource.sampleId || resource.namespaceSampleId;
  const sample: LinkCheckJob = sampleId
    ? { ...base, urlKind: 'sample', url: buildSampleUrl(resource.urlPattern, sampleId, resource.prefix, resource.namespaceEmbeddedInLui) }
    : { ...base, urlKind: 'sample', url: null, skipReason: 'no sample id to fill the URL pattern with' };
  const home: LinkCheckJob = resource.resourceHomeUrl
    ? { ...base, urlKind: 'home', url: resource.resourceHomeUrl }
    : { ...base, urlKind: 'home', url: null, skipReason: 'no home URL' };
  return [sample, home];
}

/**
 * Plans a run: records it, then queues one job per (resource, URL kind), with job ids of the run so that
 * planning it twice queues nothing twice, and delays that spread their starts evenly over `spreadMs` (the
 * per-host politeness of the worker comes on top). Resources are read in keyset pages of the size of one
 * addBulk, so memory stays flat whatever the registry's size.
 */
export async function planLinkCheckRun(deps: { db: Knex; queue: LinkCheckQueue }, options: PlanRunOptions): Promise<{ runId: string; planned: number }> {
  const { db, queue } = deps;
  const { runId, prefix, spreadMs } = options;
  await createLinkCheckRun(db, { id: runId, prefix });
  const counted = await resourcesToCheck(db, prefix).count<{ count: string }[]>('* as count');
  const expected = Math.max(1, Number(counted[0]?.count ?? 0) * 2);
  const pageSize = PLAN_CHUNK_JOBS / 2;
  let planned = 0;
  let after = 0;
  for (;;) {
    const page: ResourceToCheck[] = await resourcesToCheck(db, prefix)
      .andWhere('r.id', '>', after)
      .orderBy('r.id')
      .limit(pageSize)
      .select(
        'r.id',
        'r.urlPattern',
        'r.sampleId',
        'r.resourceHomeUrl',
        'r.protectedUrls',
        'n.prefix',
        'n.sampleId as namespaceSampleId',
        'n.namespaceEmbeddedInLui',
      );
    if (page.length === 0) break;
    const jobs = page.flatMap((resource) => checksOf(resource, runId));
    await queue.addBulk(
      jobs.map((data, i) => ({
        name: LINK_CHECK_JOB_NAME,
        data,
        opts: {
          ...linkCheckJobOptions,
          jobId: linkCheckJobId(runId, data.resourceId, data.urlKind),
          // Resources added since the count go at the end of the spread, not past it.
          delay: Math.floor((Math.min(planned + i, expected - 1) * spreadMs) / expected),
        },
      })),
    );
    planned += jobs.length;
    after = page[page.length - 1]!.id;
    if (page.length < pageSize) break;
  }
  await setLinkCheckRunPlanned(db, runId, planned);
  return { runId, planned };
}
