import { createHash, timingSafeEqual } from 'node:crypto';

// Both sides hashed first: equal-length buffers whatever was sent, so the comparison takes the same time for
// every wrong token, and the token's length does not leak either.
const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** True when `given` is the curator token, compared in constant time. */
export function isCuratorToken(given: string, expected: string): boolean {
  return expected !== '' && timingSafeEqual(digest(given), digest(expected));
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/** The token of an `Authorization: Bearer <token>` header value; undefined without one (or with another scheme). */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return authorization ? BEARER.exec(authorization)?.[1] : undefined;
}

/** Whether an Authorization header value carries `token` as its bearer token (never an empty one). */
export function carriesBearerToken(authorization: string | undefined, token: string): boolean {
  if (token === '' || !authorization) return false;
  const given = bearerTokenOf(authorization);
  return given !== undefined && isCuratorToken(given, token);
}

/** Whether an Authorization header value carries the curator token (never with curation off). */
export function carriesCuratorToken(authorization: string | undefined, curatorToken: string): boolean {
  return carriesBearerToken(authorization, curatorToken);
}
