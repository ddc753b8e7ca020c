/**
 * The signing keys of the OpenID Connect provider (OIDC_ISSUER) that access tokens are checked with: its
 * discovery document names the key set (jwks_uri), which is read through lib/http-client.ts (timeout, user
 * agent, body bound) and kept for KEYS_MAX_AGE_MS.
 *
 * Tokens choose the key (their `kid`), so anyone can send a token naming a key we have never seen. Such a
 * token makes us read the key set again (the provider may have rotated its keys), but at most once per
 * COOLDOWN_MS, whatever the number of such tokens: a stream of made-up kids costs the provider one request
 * every half minute. Every read, fresh or failed, starts that cool-down, and concurrent requests share the
 * read under way.
 *
 * When the provider cannot be reached, keys already read go on being used (a provider's restart does not
 * lock the curators out); without any, or for a key not among them, the check fails with
 * ProviderUnreachable, which the caller answers 503: the token may well be valid, and refusing it as
 * invalid (401) would send the curator's app to sign in again, which does not help.
 */
import type { JSONWebKeySet, JWTVerifyGetKey } from 'jose';
import { fetchFromIdentityProvider } from '../../lib/http-client.js';
import type { Logger } from '../../lib/logger.js';
import { loadOnFirstUse } from '../../lib/warm-up.js';

/**
 * jose, loaded when a JWT is first presented (or at the warm-up of a registry area that has OIDC set up:
 * AccessTokens registers it), never by the processes and tests that check no access token.
 */
export const loadJose = loadOnFirstUse(() => import('jose'), { warm: false });

/** How long a key set read is used before it is read again. */
export const KEYS_MAX_AGE_MS = 10 * 60 * 1000;
/** The least time between two reads of the provider (discovery and key set). */
export const COOLDOWN_MS = 30 * 1000;
/** How long one request to the provider may take. */
const TIMEOUT_MS = 5_000;
const MAX_BODY_BYTES = 512 * 1024;

/** The provider's keys cannot be read now (and none were read before). */
export class ProviderUnreachable extends Error {
  override name = 'ProviderUnreachable';
}

export interface IssuerKeysOptions {
  /** OIDC_ISSUER, exactly as the tokens' iss claim and the discovery document name it. */
  issuer: string;
  userAgent: string;
  logger: Logger;
  /** COOLDOWN_MS unless given (a test of key rotation cannot wait half a minute). */
  cooldownMs?: number;
}

/** Whether a provider's address may be fetched: https, or http on this machine (local development and tests). */
function isProviderUrl(url: URL): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname));
}

export class IssuerKeys {
  readonly #options: IssuerKeysOptions;
  #jwksUri: string | undefined;
  #keys: JWTVerifyGetKey | undefined;
  #readAt = -Infinity;
  #triedAt = -Infinity;
  /** Whether the last read failed (a key we lack may then be one the provider publishes). */
  #failed = false;
  #reading: Promise<void> | undefined;

  constructor(options: IssuerKeysOptions) {
    this.#options = options;
  }

  /** The key a token's header names, as jose's jwtVerify asks for it. */
  readonly keyFor: JWTVerifyGetKey = async (header, token) => {
    if (this.#keys === undefined || Date.now() - this.#readAt > KEYS_MAX_AGE_MS) await this.#readIfAllowed();
    const keys = this.#keys;
    if (keys === undefined) throw this.#unreachable();
    try {
      return await keys(header, token);
    } catch (error) {
      if (!(error instanceof (await loadJose()).errors.JWKSNoMatchingKey)) throw error;
      if (!this.#coolingDown()) await this.#readIfAllowed();
      if (this.#failed) throw this.#unreachable();
      return (this.#keys ?? keys)(header, token);
    }
  };

  #unreachable(): ProviderUnreachable {
    return new ProviderUnreachable(`The keys of ${this.#options.issuer} could not be read`);
  }

  #coolingDown(): boolean {
    return Date.now() - this.#triedAt < (this.#options.cooldownMs ?? COOLDOWN_MS);
  }

  /** Reads the key set unless a read was tried within the cool-down; a failed read keeps the keys there are. */
  async #readIfAllowed(): Promise<void> {
    if (!this.#reading && this.#coolingDown()) return;
    this.#reading ??= this.#read().finally(() => (this.#reading = undefined));
    await this.#reading;
  }

  async #read(): Promise<void> {
    this.#triedAt = Date.now();
    try {
      this.#jwksUri ??= await this.#discoverJwksUri();
      const keySet = (await this.#getJson(this.#jwksUri, 'key set')) as JSONWebKeySet;
      this.#keys = (await loadJose()).createLocalJWKSet(keySet);
      this.#readAt = Date.now();
      this.#failed = false;
    } catch (error) {
      this.#failed = true;
      // The discovery document is read again next time: the key set's address may have moved.
      this.#jwksUri = undefined;
      this.#options.logger.warn({ err: error, issuer: this.#options.issuer }, 'the OpenID Connect provider\'s keys could not be read');
    }
  }

  async #discoverJwksUri(): Promise<string> {
    const issuer = this.#options.issuer;
    const document = (await this.#getJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, 'discovery document')) as Record<string, unknown>;
    // OpenID Connect Discovery 1.0 §4.3: the document must name the issuer it was read from.
    if (document.issuer !== issuer) throw new Error(`The discovery document names the issuer ${JSON.stringify(document.issuer)}, not ${issuer}`);
    const jwksUri = typeof document.jwks_uri === 'string' && URL.canParse(document.jwks_uri) ? new URL(document.jwks_uri) : undefined;
    if (!jwksUri || !isProviderUrl(jwksUri)) throw new Error(`The discovery document's jwks_uri ${JSON.stringify(document.jwks_uri)} is not an https URL`);
    return jwksUri.href;
  }

  async #getJson(url: string, what: string): Promise<unknown> {
    const answer = await fetchFromIdentityProvider(
      url,
      { method: 'GET', headers: { accept: 'application/json' } },
      { timeoutMs: TIMEOUT_MS, userAgent: this.#options.userAgent, maxBodyBytes: MAX_BODY_BYTES },
    );
    if (answer.status !== 200) throw new Error(`The ${what} at ${url} answered ${answer.status}`);
    return answer.json();
  }
}
