/**
 * The curators' OpenID Connect sign-in (OIDC_ISSUER): the authorization code flow with PKCE, through the
 * maintained openid-client library. start() keeps the flow's PKCE verifier and nonce on the server (by the
 * hash of its state, desk-sessions.service.ts) and gives the provider's address to send the browser to;
 * finish() takes the provider's answer at PUBLIC_REGISTRY_URL/curation/oidc/callback, exchanges the code,
 * checks the ID token (issuer, audience, nonce, signature: the library's) and says who signed in, if they
 * are one of OIDC_CURATORS.
 *
 * The provider's discovery document is read on the first sign-in and kept; a failed read is tried again at
 * the next one. Requests to the provider go through lib/http-client.ts.
 */
import type * as Client from 'openid-client';
import { DomainError } from '../../core/domain-error.js';
import { fetchFromIdentityProvider } from '../../lib/http-client.js';
import type { Curator } from '../model/curator-auth.js';
import type { DeskSessions } from '../model/desk-sessions.service.js';
import { loadOnFirstUse, warmUpWith } from '../../lib/warm-up.js';

// openid-client (with oauth4webapi) is loaded by the first sign-in, or at the warm-up of a registry area that
// has OIDC set up (the constructor registers it), never by the processes and tests that do not sign in.
const loadClient = loadOnFirstUse(() => import('openid-client'), { warm: false });

export interface OidcSettings {
  issuer: string;
  clientId: string;
  /** Empty: a public client (PKCE only). */
  clientSecret: string;
  /** OIDC_CURATORS, split: subjects and e-mail addresses. */
  curators: readonly string[];
  /** PUBLIC_REGISTRY_URL/curation/oidc/callback. */
  redirectUri: string;
  userAgent: string;
}

const SCOPE = 'openid email profile';
const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1024 * 1024;

/** The sign-in came back but does not let anyone in: the message says why (shown on the desk's sign-in page). */
export class SignInRefused extends Error {
  override name = 'SignInRefused';
}

/** Whether an address is on this machine (http is allowed there only: local development and tests). */
function isLoopback(url: URL): boolean {
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export class OidcSignIn {
  private configuration: Promise<Client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly sessions: DeskSessions,
  ) {
    warmUpWith(loadClient);
  }

  /** The provider's name as the sign-in button shows it: its host. */
  get providerName(): string {
    return new URL(this.settings.issuer).host;
  }

  private config(client: typeof Client): Promise<Client.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuer);
      const fetchOptions = { timeoutMs: TIMEOUT_MS, userAgent: this.settings.userAgent, maxBodyBytes: MAX_BODY_BYTES };
      const customFetch: Client.CustomFetch = (url, options) => fetchFromIdentityProvider(url, options, fetchOptions);
      const secret = this.settings.clientSecret;
      this.configuration = client
        .discovery(issuer, this.settings.clientId, secret === '' ? undefined : secret, secret === '' ? client.None() : client.ClientSecretPost(secret), {
          execute: issuer.protocol === 'http:' && isLoopback(issuer) ? [client.allowInsecureRequests] : [],
          [client.customFetch]: customFetch,
          timeout: TIMEOUT_MS / 1000,
        })
        .then((config) => {
          config[client.customFetch] = customFetch;
          return config;
        })
        .catch((error: unknown) => {
          this.configuration = undefined;
          throw new DomainError('unavailable', `The sign-in provider ${this.providerName} cannot be reached right now; try again shortly`, {
            cause: error,
            retryAfterSeconds: 30,
          });
        });
    }
    return this.configuration;
  }

  /** Begins a sign-in: the state (for the browser's cookie) and the provider's address to send the browser to. */
  async start(): Promise<{ state: string; authorizationUrl: string }> {
    const client = await loadClient();
    const config = await this.config(client);
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await this.sessions.savePendingSignIn({ state, codeVerifier, nonce });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: SCOPE,
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { state, authorizationUrl: url.href };
  }

  /**
   * Ends a sign-in: `query` is the callback's query string, `cookieState` the state the browser kept. The
   * curator who signed in; SignInRefused when the answer is not a valid sign-in or not of a curator.
   */
  async finish(query: string, cookieState: string | undefined): Promise<Curator> {
    const params = new URLSearchParams(query);
    const state = params.get('state');
    if (state === null || cookieState === undefined || state !== cookieState) {
      throw new SignInRefused('The sign-in was not started in this browser, or took too long. Start it again.');
    }
    const pending = await this.sessions.takePendingSignIn(state);
    if (!pending) throw new SignInRefused('The sign-in was already used, or took too long. Start it again.');
    const client = await loadClient();
    const config = await this.config(client);
    let claims: Record<string, unknown>;
    try {
      const tokens = await client.authorizationCodeGrant(config, new URL(`${this.settings.redirectUri}?${query}`), {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      claims = { ...idToken };
      // Providers that follow the core spec strictly put the profile and e-mail in the userinfo answer only.
      if (config.serverMetadata().userinfo_endpoint && (text(claims.email) === undefined || text(claims.name) === undefined)) {
        const info = await client.fetchUserInfo(config, tokens.access_token, idToken.sub);
        claims = { ...info, ...claims };
      }
    } catch (error) {
      if (error instanceof DomainError) throw error;
      const reason = error instanceof client.AuthorizationResponseError ? (error.error_description ?? error.error) : (error as Error).message;
      throw new SignInRefused(`The sign-in at ${this.providerName} did not complete: ${reason}`);
    }
    return this.curatorOf(claims);
  }

  /** The curator the claims name, if OIDC_CURATORS lets them in. */
  private curatorOf(claims: Record<string, unknown>): Curator {
    const subject = text(claims.sub)!;
    const issuer = text(claims.iss) ?? this.settings.issuer;
    const email = text(claims.email);
    const verifiedEmail = email !== undefined && claims.email_verified === true ? email.toLowerCase() : undefined;
    const allowed = this.settings.curators.some((entry) => entry === subject || (verifiedEmail !== undefined && entry.toLowerCase() === verifiedEmail));
    const name = text(claims.name) ?? text(claims.preferred_username) ?? email ?? subject;
    if (!allowed) {
      throw new SignInRefused(`${name} signed in at ${this.providerName}, but is not one of this registry's curators (OIDC_CURATORS).`);
    }
    return { name, kind: 'oidc', issuer, subject };
  }
}
