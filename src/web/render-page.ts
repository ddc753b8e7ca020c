import type { Context } from 'koa';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { setPageSecurity } from '../http/page-security.js';

export interface PageAnswer {
  status?: number;
  /** Pages read the live registry: by default a cache must revalidate (they are cheap to render again). */
  cacheControl?: string;
}

/** A page as the HTML document the browser gets; preact escapes every text and attribute it writes. */
export function renderDocument(page: VNode): string {
  return `<!doctype html>${renderToString(page)}`;
}

/** Marks the request as a page's, before anything can fail: a browser then gets its error as a page too. */
export function servingPage(ctx: Context): void {
  ctx.state.htmlPage = true;
}

/**
 * Answers with a page: its status, `text/html`, Cache-Control, `Vary: Accept`, since the paths that
 * serve pages to browsers answer other clients differently (content negotiation, negotiation.ts), and the
 * pages' Content-Security-Policy.
 */
export function sendPage(ctx: Context, page: VNode, answer: PageAnswer = {}): void {
  servingPage(ctx);
  setPageSecurity(ctx);
  ctx.status = answer.status ?? 200;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', answer.cacheControl ?? 'no-cache');
  ctx.vary('Accept');
  ctx.body = renderDocument(page);
}
