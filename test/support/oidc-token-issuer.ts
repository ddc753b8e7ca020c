/**
 * A loopback OpenID Connect provider that issues access tokens, as Keycloak does for the reference web app:
 * its discovery document and key set on 127.0.0.1, and tokens signed with its keys (jose). It counts the
 * reads of its key set, and can publish a new key (a rotation).
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface TokenOptions {
  /** Another key than the provider's first (one it does not publish, say). */
  key?: SigningKey;
  /** The kid the token's header names (the key's own by default). */
  kid?: string;
  /** Header typ (JWT by default, as Keycloak's). */
  typ?: string;
  /** Seconds from now the token expires at (300 by default; negative: expired). */
  expiresIn?: number;
}

export interface TokenIssuer {
  /** The issuer URL (OIDC_ISSUER). */
  url: string;
  /** The kid of the key it signs with. */
  kid: string;
  /** Reads of the key set so far. */
  keySetReads: () => number;
  /** A token with these claims (iss is the provider's unless given), signed by its first key unless told. */
  sign: (claims: JWTPayload, options?: TokenOptions) => Promise<string>;
  /** A key pair the provider does not publish (until `publish`). */
  newKey: () => Promise<SigningKey>;
  /** Adds a key to the published key set (a rotation). */
  publish: (key: SigningKey) => void;
  close: () => Promise<void>;
}

let keys = 0;

async function makeKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `key-${++keys}`;
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

export async function startTokenIssuer(): Promise<TokenIssuer> {
  const published = [await makeKey()];
  let reads = 0;
  const server = http.createServer((req, res) => {
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      return json({ issuer: url, jwks_uri: `${url}/protocol/openid-connect/certs`, id_token_signing_alg_values_supported: ['RS256'] });
    }
    if (req.url === '/protocol/openid-connect/certs') {
      reads++;
      return json({ keys: published.map((key) => key.publicJwk) });
    }
    res.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    kid: published[0]!.kid,
    keySetReads: () => reads,
    sign: async (claims, options = {}) => {
      const key = options.key ?? published[0]!;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: url, iat: now - 10, exp: now + (options.expiresIn ?? 300), ...claims })
        .setProtectedHeader({ alg: 'RS256', typ: options.typ ?? 'JWT', kid: options.kid ?? key.kid })
        .sign(key.privateKey);
    },
    newKey: makeKey,
    publish: (key) => void published.push(key),
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
