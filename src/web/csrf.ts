/**
 * Cross-site request forgery protection for the public forms of the pages: a double-submit token (a random
 * value in a SameSite=Strict, HttpOnly cookie, repeated in a hidden field of each form; a forged form on
 * another site can neither read nor set it) and, when the browser sends one, an Origin that must be the
 * registry's own. Stateless: nothing is stored on the server.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';

export const CSRF_COOKIE = 'registry_csrf';
/** The hidden field of every form. */
export const CSRF_FIELD = 'csrf';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The token the page's forms carry: the browser's current one, or a new one set in the cookie. The cookie
 * is Secure when the page is served over https (ctx.secure: behind a proxy, with TRUST_PROXY).
 */
export function csrfToken(ctx: Context): string {
  const current = ctx.cookies.get(CSRF_COOKIE);
  if (current !== undefined && TOKEN_SHAPE.test(current)) return current;
  const token = randomBytes(32).toString('base64url');
  ctx.cookies.set(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', overwrite: true });
  return token;
}

/** Two tokens compared in constant time (for equal lengths; tokens have a fixed length). */
export function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Whether the request's Origin, when the browser sends one, is the registry's own: the area's address as
 * the request reached it, or PUBLIC_REGISTRY_URL's origin (`publicOrigin`, what a browser behind a proxy
 * sends).
 */
export function isOwnOrigin(ctx: Context, publicOrigin: string): boolean {
  const origin = ctx.get('origin');
  // Koa 3's ctx.origin is the Origin header itself: the area's own origin is made from the request.
  return origin === '' || origin === `${ctx.protocol}://${ctx.host}` || origin === publicOrigin;
}

/**
 * Whether a form POST comes from one of the registry's own pages: its Origin (when sent) is the
 * registry's, and its token field equals the cookie. `publicOrigin`: PUBLIC_REGISTRY_URL's origin, which a
 * browser behind a proxy sends.
 */
export function isOwnFormPost(ctx: Context, formToken: string | undefined, publicOrigin: string): boolean {
  if (!isOwnOrigin(ctx, publicOrigin)) return false;
  const cookie = ctx.cookies.get(CSRF_COOKIE);
  return cookie !== undefined && formToken !== undefined && TOKEN_SHAPE.test(cookie) && sameToken(cookie, formToken);
}
