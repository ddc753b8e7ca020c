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
/** TOKEN_MISSING_MESSAGE where access tokens are taken (OIDC_API_AUDIENCE). */
export const ACCESS_TOKEN_MISSING_MESSAGE = 'Curation needs a bearer token: send Authorization: Bearer <access token>, as the sign-in provider gave it';
const NOT_AN_ACCESS_TOKEN = 'The bearer token is not an access token (a JWT)';

/**
 * A curator, or why an access token is refused: `invalid` (401: not a valid token of our provider for us),
 * `not-curator` (403: a valid token of someone who is no curator).
 */
export type AccessTokenVerdict = { curator: Curator } | { refused: 'invalid' | 'not-curator'; reason: string };

/** The check of OpenID Connect access tokens (access-tokens.ts); absent unless OIDC_API_AUDIENCE is set. */
export interface AccessTokenCheck {
  /** Throws a DomainError (503) when the provider's keys cannot be read. */
  verify(token: string): Promise<AccessTokenVerdict>;
}

/** Three base64url parts: the compact form of a JWT (an unsigned one, alg none, ends in a dot: refused as such). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * RFC 6750 §3: what a refused access token is told in WWW-Authenticate. Its error_description allows printable
 * ASCII but for the quote and the backslash (a person's name in a reason may hold anything).
 */
function bearerChallenge(error: 'invalid_token' | 'insufficient_scope', reason: string): string {
  return `${CURATION_CHALLENGE}, error="${error}", error_description="${reason.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?')}"`;
}

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

/** A curator, or a valid access token of someone who is not one (with why). */
type Identified = { curator: Curator } | { notCurator: string };

/**
 * Who a bearer token stands for: the curator token's holder, or (with access tokens on) the person of a
 * JWT-shaped token. A wrong curator token is refused with 403, an access token that is not valid with 401,
 * both counted by the throttle (429 past the free tries); a valid access token of a non-curator is left to
 * the caller. Without access tokens this is the curator token check alone, whatever the token looks like.
 */
async function identify(ctx: Context, given: string, tokenHolder: Curator, curatorToken: string, throttle: WrongTokenThrottle, accessTokens?: AccessTokenCheck): Promise<Identified> {
  if (isCuratorToken(given, curatorToken)) return { curator: tokenHolder };
  if (accessTokens && JWT_SHAPE.test(given)) {
    const verdict = await accessTokens.verify(given);
    if ('curator' in verdict) return verdict;
    if (verdict.refused === 'not-curator') return { notCurator: verdict.reason };
    await throttle.refuseWhenThrottled(ctx.ip);
    throw invalidToken(verdict.reason);
  }
  await throttle.refuseWhenThrottled(ctx.ip);
  // Without a curator token, a token that is no JWT can only be a mangled access token.
  throw accessTokens && curatorToken === '' ? invalidToken(NOT_AN_ACCESS_TOKEN) : new DomainError('forbidden', TOKEN_WRONG_MESSAGE);
}

function invalidToken(reason: string): DomainError {
  return new DomainError('unauthenticated', reason, { challenge: bearerChallenge('invalid_token', reason) });
}

/**
 * Whether a public endpoint's caller is a curator (and may see what others may not). No bearer token, or
 * curation off: not a curator. A wrong token is refused with 403 (429 when throttled), as on the curation
 * endpoints, so that a mistyped token does not silently read as an anonymous call; an access token that is
 * not valid likewise with 401. A valid access token of someone who is no curator is an anonymous call: the
 * reference web app sends its signed-in person's token with every request.
 */
export async function callerIsCurator(ctx: Context, curatorToken: string, throttle: WrongTokenThrottle, accessTokens?: AccessTokenCheck): Promise<boolean> {
  const given = bearerToken(ctx);
  if (given === undefined || (curatorToken === '' && !accessTokens)) return false;
  return 'curator' in (await identify(ctx, given, tokenCurator(''), curatorToken, throttle, accessTokens));
}

/**
 * Guards every curation endpoint with the CURATOR_TOKEN setting and, when OIDC_API_AUDIENCE is set, with the
 * provider's access tokens (access-tokens.ts). Curation is off when neither is set: the endpoints then answer
 * 404 (they do not exist on this registry) before any token is looked at. No token: 401 with
 * WWW-Authenticate; a wrong curator token: 403; an access token that is not valid: 401, one without the
 * curator role: 403 (RFC 6750's invalid_token and insufficient_scope); 429 once the address has sent too
 * many wrong ones (`throttle`). The answers are never cached by intermediaries. The curator let through is in
 * ctx.state (curatorOf): the token's holder named `curatorName` (CURATOR_NAME), or the access token's person.
 * It runs ahead of the route's body reader, which an anonymous request never reaches (auth-before-body.ts).
 */
export function requireCurator(curatorToken: string, curatorName: string, throttle: WrongTokenThrottle, accessTokens?: AccessTokenCheck): Middleware {
  const curator = tokenCurator(curatorName);
  const missing = accessTokens ? ACCESS_TOKEN_MISSING_MESSAGE : TOKEN_MISSING_MESSAGE;
  return async function curatorOnly(ctx, next) {
    assertBodyUnread(ctx, 'the curator token check');
    ctx.set('Cache-Control', 'no-store');
    if (curatorToken === '' && !accessTokens) throw new DomainError('not-found', CURATION_DISABLED_MESSAGE);
    const given = bearerToken(ctx);
    if (given === undefined) throw new DomainError('unauthenticated', missing, { challenge: CURATION_CHALLENGE });
    const identified = await identify(ctx, given, curator, curatorToken, throttle, accessTokens);
    if ('notCurator' in identified) {
      await throttle.refuseWhenThrottled(ctx.ip);
      throw new DomainError('forbidden', identified.notCurator, { challenge: bearerChallenge('insufficient_scope', identified.notCurator) });
    }
    (ctx.state as { curator?: Curator }).curator = identified.curator;
    await next();
  };
}
