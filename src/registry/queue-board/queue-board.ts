/**
 * The queue dashboard: bull-board (@bull-board/api with its Koa adapter, pinned to one version together)
 * over every queue of the service, as the workers' BullMQ keys hold them under QUEUE_PREFIX. It only reads
 * and acts on Redis; who may see it and which of its actions are allowed is queue-board-access.ts's.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Middleware } from 'koa';
import type { Logger } from '../../lib/logger.js';
import { createQueue, queueNames, type QueueName } from '../../queue/queues.js';
import { importInTurn, loadOnFirstUse } from '../../lib/warm-up.js';
import { allowListedActions, pathInBoard } from './queue-board-access.js';

// bull-board and its Koa adapter (with their templates and koa-views) take a good 100 ms to load: loaded by
// the first board request, or at a serving registry's warm-up, never by a test that builds the area only.
const loadBullBoard = loadOnFirstUse(() =>
  importInTurn(
    () => import('@bull-board/api'),
    () => import('@bull-board/api/bullMQAdapter'),
    () => import('@bull-board/koa'),
  ),
);

/**
 * What each queue is for, as the board shows it under its name. A Record of every QueueName: a new queue
 * does not compile until it is described here, so the board always shows every queue.
 */
export const QUEUE_DESCRIPTIONS: Readonly<Record<QueueName, string>> = {
  [queueNames.dataset]: 'Builds the resolver dataset files: nightly, after each registry change, and before the first download',
  [queueNames.usageRollup]: 'Rolls the resolver usage counters up from Redis into the statistics in Postgres (nightly)',
  [queueNames.urlCheck]: 'Fetches the URLs of registration requests for their live checks (the registry area never fetches them)',
  [queueNames.notifications]: 'Sends the due e-mails of the notification outbox',
  [queueNames.housekeeping]: 'Deletes what is kept only for a while: stored Idempotency-Key answers, link-check history (hourly)',
  [queueNames.linkCheckPlan]: 'Plans each run of the resource link checks',
  [queueNames.linkCheck]: 'Checks one URL of one resource per job, for a link-check run',
  [queueNames.metadata]: 'Fetches a provider page and extracts its metadata (JSON-LD, Open Graph, title) for the resolver\'s /metadataApi',
};

export interface QueueBoardDeps {
  /** The area's producer connection: the board's reads and actions are short commands, never blocking ones. */
  redis: Redis;
  /** QUEUE_PREFIX: the workers' own, so the board shows their queues. */
  prefix: string;
  /** Where the board is mounted; its page's links and its API are under it. */
  basePath: string;
  /** The curator desk's address, linked from the board's menu. */
  deskPath: string;
  logger: Logger;
}

/**
 * The board as Koa middleware answering under `basePath` (and handing anything it does not serve on). It
 * is built on its first request: the registry area's other requests, and every test that builds the area,
 * then open no queue at all.
 */
export function createQueueBoard(deps: QueueBoardDeps): Middleware {
  let board: Promise<Middleware> | undefined;
  return async function queueBoard(ctx, next) {
    // Only a request to the board builds it: the queues' meta writes would otherwise follow any first request.
    if (pathInBoard(ctx.path, deps.basePath) === undefined) return next();
    board ??= buildBoard(deps);
    return (await board)(ctx, next);
  };
}

async function buildBoard(deps: QueueBoardDeps): Promise<Middleware> {
  const [{ createBullBoard }, { BullMQAdapter }, { KoaAdapter }] = await loadBullBoard();
  const queues = (Object.values(queueNames) as QueueName[]).map((name) => {
    const queue = createQueue(name, deps.redis, deps.prefix);
    // Connection trouble is the area's Redis connection's; the board's request that meets it answers it.
    queue.on('error', (error) => deps.logger.debug({ err: error, queue: name }, 'queue board: queue error'));
    return new BullMQAdapter(queue as Queue, { description: QUEUE_DESCRIPTIONS[name], allowRetries: true, readOnlyMode: false });
  });
  const adapter = new KoaAdapter();
  adapter.setBasePath(deps.basePath);
  createBullBoard({
    queues,
    serverAdapter: adapter,
    options: {
      handlerHooks: { before: allowListedActions },
      uiConfig: {
        boardTitle: 'Registry queues',
        // The board's documentation link leads off the registry; the desk's link leads back to it.
        hideDocsLink: true,
        miscLinks: [{ text: 'Curator desk', url: deps.deskPath }],
      },
    },
  });
  return adapter.registerPlugin();
}
