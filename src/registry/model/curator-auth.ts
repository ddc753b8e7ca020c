import type { Context, Middleware } from 'koa';
import type { CuratorKind } from '../../db/tables.js';
import { assertBodyUnread } from '../../http/auth-before-body.js';
import { bearerTokenOf, isCuratorToken } from '../../http/bearer-token.js';
import { DomainError } from '../../core/domain-error.js';
import type { WrongTokenThrottle } from './wrong-token-throttle.js';

// The comparison lives in http/ (the rate limits exempt the token in both areas); the desk takes it from here.
export { isCuratorToken };

export const CURATION_DISABLED_MESSAGE = 'Curation is not enabled on this registry';
export const TOKEN_MISSING_MESSAGE = 'Curation needs a bearer token: send Authorization: Bearer <curator token>';
/** How a curator authenticates (the WWW-Authenticate of a 401). */
export const CURATION_CHALLENGE = 'Bearer realm="curation"';
export const TOKEN_WRONG_MESSAGE = 'The bearer token is not the curator token';

/**
 * Who is curating, as every curation event records them. With CURATOR_TOKEN the token's holder, named by
 * CURATOR_NAME (one shared token cannot tell people apart); an OpenID Connect sign-in gives each person's
 * name with the issuer and subject that identify them for good.
 */
export interface Curator {
  name: string;
  kind: CuratorKind;
  issuer: string | null;
  subject: string | null;
}

/** The curator holding CURATOR_TOKEN. */
export function tokenCurator(name: string): Curator {
  return { name, kind: 'token', issuer: null, subject: null };
}

/** The curator requireCurator let through (only on the routes it guards). */
export function curatorOf(ctx: Context): Curator {
  const curator = (ctx.state as { curator?: Curator }).curator;
  if (!curator) throw new Error('curatorOf() on a route that requireCurator() does not guard');
  return curator;
}

/** The token of an `Authorization: Bearer <token>` header; undefined without one (or with another scheme). */
function bearerToken(ctx: Context): string | undefined {
  return bearerTokenOf(ctx.get('Authorization'));
}

/**
 * Whether `given` is the curator token. The comparison comes first, so the right token is let in from any
 * address, however many wrong ones were sent from it; a wrong one is counted by the throttle, which throws
 * its 429 once the address is past its free tries (wrong-token-throttle.ts).
 */
export async function checkCuratorToken(ctx: Context, given: string, curatorToken: string, throttle: WrongTokenThrottle): Promise<boolean> {
  if (isCuratorToken(given, curatorToken)) return true;
  await throttle.refuseWhenThrottled(ctx.ip);
  return false;
}

/**
 * Whether a public endpoint's caller is a curator (and may see what others may not). No bearer token, or
 * curation off: not a curator. A wrong token is refused with 403 (429 when throttled), as on the curation
 * endpoints, so that a mistyped token does not silently read as an anonymous call.
 */
export async function callerIsCurator(ctx: Context, curatorToken: string, throttle: WrongTokenThrottle): Promise<boolean> {
  const given = bearerToken(ctx);
  if (given === undefined || curatorToken === '') return false;
  if (!(await checkCuratorToken(ctx, given, curatorToken, throttle))) throw new DomainError('forbidden', TOKEN_WRONG_MESSAGE);
  return true;
}

/**
 * Guards every curation endpoint with the CURATOR_TOKEN setting. Curation is off when the setting is empty:
 * the endpoints then answer 404 (they do not exist on this registry) before any token is looked at.
 * No token: 401 with WWW-Authenticate; a wrong one: 403, or 429 once the address has sent too many
 * (`throttle`). The answers are never cached by intermediaries. The curator let through is in ctx.state
 * (curatorOf), named `curatorName` (CURATOR_NAME). It runs ahead of the route's body reader, which an
 * anonymous request never reaches (auth-before-body.ts).
 */
export function requireCurator(curatorToken: string, curatorName: string, throttle: WrongTokenThrottle): Middleware {
  const curator = tokenCurator(curatorName);
  return async function curatorOnly(ctx, next) {
    assertBodyUnread(ctx, 'the curator token check');
    ctx.set('Cache-Control', 'no-store');
    if (curatorToken === '') throw new DomainError('not-found', CURATION_DISABLED_MESSAGE);
    const given = bearerToken(ctx);
    if (given === undefined) throw new DomainError('unauthenticated', TOKEN_MISSING_MESSAGE, { challenge: CURATION_CHALLENGE });
    if (!(await checkCuratorToken(ctx, given, curatorToken, throttle))) throw new DomainError('forbidden', TOKEN_WRONG_MESSAGE);
    (ctx.state as { curator?: Curator }).curator = curator;
    await next();
  };
}
