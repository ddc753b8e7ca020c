/**
 * OpenID Connect access tokens on the curator APIs (issue 23 item 8): the reference web app signs curators in
 * with Keycloak and sends its access token (a JWT) as the bearer token. With OIDC_API_AUDIENCE and
 * OIDC_CURATOR_ROLE set, such a token is a curator's when it is signed by a key of OIDC_ISSUER
 * (issuer-keys.ts) with an asymmetric algorithm, was issued by it for OIDC_API_AUDIENCE, is within its
 * lifetime, is an access token (not an ID token) and carries the curator role where Keycloak and other
 * providers put roles and groups.
 *
 * The verdict says what is wrong in words meant for the caller (no key material, no library wording); the
 * caller (curator-auth.ts) turns it into 401 or 403.
 */
import type * as Jose from 'jose';
import { DomainError } from '../../core/domain-error.js';
import type { Logger } from '../../lib/logger.js';
import { warmUpWith } from '../../lib/warm-up.js';
import type { AccessTokenCheck, AccessTokenVerdict } from './curator-auth.js';
import { IssuerKeys, loadJose, ProviderUnreachable } from './issuer-keys.js';

export interface AccessTokenSettings {
  /** OIDC_ISSUER. */
  issuer: string;
  /** OIDC_API_AUDIENCE. */
  audience: string;
  /** OIDC_CURATOR_ROLE, split: any of them makes a curator. */
  curatorRoles: readonly string[];
  userAgent: string;
  logger: Logger;
  /** The least time between two reads of the provider's keys (issuer-keys.ts's default unless given). */
  keyReadCooldownMs?: number;
}

// Asymmetric signatures only: HS* would take the provider's shared secret, `none` no signature at all.
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Seconds by which the provider's clock and ours may disagree. */
const CLOCK_TOLERANCE_SECONDS = 30;
// RFC 9068 access tokens say `at+jwt`; Keycloak's say JWT, and tell an access token by the claim typ=Bearer.
const ACCESS_TOKEN_TYPES = new Set(['jwt', 'at+jwt', 'application/at+jwt']);

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** An object's own field; undefined for anything else (claims are the token's, shaped as its issuer likes). */
function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** What jose found wrong, as the caller is told it. */
function reasonOf({ errors }: typeof Jose, error: unknown, audience: string): string | undefined {
  if (error instanceof errors.JWTExpired) return 'The access token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return `The access token is not meant for this registry (its audience is not ${audience})`;
    if (error.claim === 'nbf') return 'The access token is not valid yet';
    if (error.reason === 'missing') return `The access token has no ${error.claim} claim`;
    return `The access token's ${error.claim} claim is not valid`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The access token is not signed with an algorithm this registry accepts (RS, PS, ES or EdDSA)';
  if (error instanceof errors.JWKSNoMatchingKey) return 'The access token is signed with a key its issuer does not publish';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'The access token\'s signature is not valid';
  if (error instanceof errors.JOSEError) return 'The bearer token is not a valid access token';
  return undefined;
}

export class AccessTokens implements AccessTokenCheck {
  readonly #settings: AccessTokenSettings;
  readonly #keys: IssuerKeys;
  readonly #provider: string;

  constructor(settings: AccessTokenSettings) {
    this.#settings = settings;
    this.#keys = new IssuerKeys({ issuer: settings.issuer, userAgent: settings.userAgent, logger: settings.logger, cooldownMs: settings.keyReadCooldownMs });
    this.#provider = new URL(settings.issuer).host;
    warmUpWith(loadJose);
  }

  /** The curator a JWT-shaped bearer token stands for, or why it is refused; throws 503 when the keys cannot be read. */
  async verify(token: string): Promise<AccessTokenVerdict> {
    const { issuer, audience } = this.#settings;
    const jose = await loadJose();
    let unverified: Jose.JWTPayload;
    try {
      unverified = jose.decodeJwt(token);
    } catch {
      return { refused: 'invalid', reason: 'The bearer token is not a valid access token' };
    }
    // Checked before any key is looked for: another provider's token never makes us read our provider's keys.
    if (unverified.iss !== issuer) return { refused: 'invalid', reason: `The access token was not issued by ${issuer}` };
    let claims: Jose.JWTPayload;
    let type: string | undefined;
    try {
      const verified = await jose.jwtVerify(token, this.#keys.keyFor, {
        issuer,
        audience,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      });
      claims = verified.payload;
      type = verified.protectedHeader.typ;
    } catch (error) {
      if (error instanceof ProviderUnreachable) {
        throw new DomainError('unavailable', `The sign-in provider ${this.#provider} cannot be reached to check the access token; try again shortly`, {
          cause: error,
          retryAfterSeconds: 30,
        });
      }
      const reason = reasonOf(jose, error, audience);
      if (reason === undefined) throw error;
      return { refused: 'invalid', reason };
    }
    // An ID token (Keycloak: typ=ID) for a client named like the audience is no access token.
    if ((type !== undefined && !ACCESS_TOKEN_TYPES.has(type.toLowerCase())) || (claims.typ !== undefined && String(claims.typ).toLowerCase() !== 'bearer')) {
      return { refused: 'invalid', reason: 'The bearer token is not an access token (an ID token, say)' };
    }
    const subject = text(claims.sub);
    if (subject === undefined) return { refused: 'invalid', reason: 'The access token\'s sub claim is not valid' };
    const name = (text(claims.preferred_username) ?? text(claims.name) ?? text(claims.email) ?? subject).slice(0, 255);
    if (!this.#isCurator(claims)) {
      return { refused: 'not-curator', reason: `${name} is not a curator of this registry: the access token from ${this.#provider} does not carry the curator role` };
    }
    return { curator: { name, kind: 'oidc', issuer, subject: subject.slice(0, 255) } };
  }

  /**
   * Whether the claims carry a curator role: Keycloak's realm roles and the roles of the audience's client
   * (as the reference's resource server reads them), groups (Keycloak gives a group's path, `/curators`),
   * and a plain `roles` claim (other providers). Another client's roles do not count: a role of the same
   * name there means something else.
   */
  #isCurator(claims: Jose.JWTPayload): boolean {
    const held = new Set([
      ...strings(field(claims.realm_access, 'roles')),
      ...strings(field(field(claims.resource_access, this.#settings.audience), 'roles')),
      ...strings(claims.groups).map((group) => group.replace(/^\//, '')),
      ...strings(claims.roles),
    ]);
    return this.#settings.curatorRoles.some((role) => held.has(role) || held.has(role.replace(/^\//, '')));
  }
}
