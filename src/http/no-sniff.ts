import type { Middleware } from 'koa';

// Both areas answer JSON (and a few HTML pages) that echo client input: a browser must never sniff such an
// answer into script or HTML of another type. The same constant pair for every answer, so it costs one
// header and no decision.
export const NOSNIFF_HEADER = 'X-Content-Type-Options';
export const NOSNIFF_VALUE = 'nosniff';

/** Sets X-Content-Type-Options: nosniff on every answer (errors included: nothing downstream removes it). */
export function noSniff(): Middleware {
  return function setNoSniff(ctx, next) {
    ctx.set(NOSNIFF_HEADER, NOSNIFF_VALUE);
    return next();
  };
}
