import { Router } from '@koa/router';
import type { Context } from 'koa';
import { invalid } from '../../core/domain-error.js';
import { decodeCursor } from '../model/change-cursor.js';
import type { ChangeFeedService, FeedChange } from './change-feed.service.js';
import { ATOM_TYPE, atomFeed } from './changes-atom.presenter.js';
import { writeChangePage } from './changes.presenter.js';

export interface ChangesRouteDeps {
  changes: ChangeFeedService;
  publicRegistryUrl: string;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

function pageSize(value: string | string[] | undefined): number {
  const text = single(value);
  if (text === undefined || text === '') return DEFAULT_PAGE_SIZE;
  const size = /^\d{1,4}$/.test(text) ? Number(text) : NaN;
  if (!(size >= 1 && size <= MAX_PAGE_SIZE)) throw invalid(`'limit' must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  return size;
}

const newest = (changes: FeedChange[]): Date =>
  changes.reduce<Date | null>((latest, c) => (latest && latest >= c.changedAt ? latest : c.changedAt), null) ?? new Date();

/**
 * GET /changes?since={cursor}&limit=: every committed registry change (the registry_changes log), oldest
 * first, a page at a time with the cursor to resume from; the same as Atom at /changes.atom or with Accept:
 * application/atom+xml (without `since`, the Atom feed shows the latest changes, newest first, as feed
 * readers expect).
 */
export function changesRoutes(deps: ChangesRouteDeps): Router {
  const router = new Router();
  const { publicRegistryUrl } = deps;
  const feedUrl = (since: string | undefined, limit: number) => {
    const query = new URLSearchParams();
    if (since !== undefined) query.set('since', since);
    if (limit !== DEFAULT_PAGE_SIZE) query.set('limit', String(limit));
    const text = query.toString();
    return `${publicRegistryUrl}/changes.atom${text ? `?${text}` : ''}`;
  };

  const answerAtom = async (ctx: Context) => {
    const since = single(ctx.query.since);
    const limit = pageSize(ctx.query.limit);
    const cursor = decodeCursor(since);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = `${ATOM_TYPE}; charset=utf-8`;
    if (since === undefined) {
      const changes = await deps.changes.latestChanges(limit);
      ctx.body = await atomFeed(changes, { publicRegistryUrl, selfUrl: feedUrl(undefined, limit), updated: newest(changes) });
      return;
    }
    const page = await deps.changes.changesAfter(cursor, limit);
    ctx.body = await atomFeed(page.changes, {
      publicRegistryUrl,
      selfUrl: feedUrl(since, limit),
      nextUrl: page.more ? feedUrl(page.next, limit) : undefined,
      updated: newest(page.changes),
    });
  };

  router.get('/changes', async (ctx) => {
    ctx.vary('Accept');
    if (ctx.accepts('application/json', ATOM_TYPE) === ATOM_TYPE) return answerAtom(ctx);
    const limit = pageSize(ctx.query.limit);
    const page = await deps.changes.changesAfter(decodeCursor(single(ctx.query.since)), limit);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'application/json';
    ctx.body = await writeChangePage(page, publicRegistryUrl);
  });
  router.get('/changes.atom', answerAtom);
  return router;
}
