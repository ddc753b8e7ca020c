/**
 * Issue 23 item 8: the curator APIs take the OpenID Connect access tokens the reference web app sends after
 * a Keycloak sign-in (OIDC_ISSUER, OIDC_API_AUDIENCE, OIDC_CURATOR_ROLE), from a loopback provider that
 * signs them (test/support/oidc-token-issuer.ts). A curator's token works and names the curator in what they
 * do; an expired, wrongly signed, foreign or misdirected token is answered 401, a non-curator's 403; the
 * curator token still works beside them, and without the settings a JWT is just a wrong curator token.
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { SignJWT } from 'jose';
import request from 'supertest';
import { createLogger } from '../../src/lib/logger.js';
import { AccessTokens } from '../../src/registry/model/access-tokens.js';
import { prefixRegistration, unique } from '../factories/registration.factory.js';
import { startStack, type AreaStack } from '../support/areas.js';
import { startTokenIssuer, type TokenIssuer } from '../support/oidc-token-issuer.js';
import { regexpChecks } from '../support/stand-in-checks.js';
import { waitFor } from '../support/wait.js';

const CURATOR_TOKEN = randomBytes(24).toString('hex');
const AUDIENCE = 'hq-registry';
const SUMMARY = '/curationApi/warningsSummary';

/** Claims as Keycloak puts them in an access token of the reference app's curator. */
const curatorClaims = (overrides: Record<string, unknown> = {}) => ({
  sub: 'f1a2b3c4-curator',
  aud: [AUDIENCE, 'account'],
  typ: 'Bearer',
  azp: 'hq-curation',
  preferred_username: 'olivia',
  name: 'Olivia Curator',
  realm_access: { roles: ['offline_access', 'curator'] },
  ...overrides,
});

describe('OpenID Connect access tokens on the curator APIs', () => {
  let issuer: TokenIssuer;
  let stack: AreaStack;
  let app: RequestListener;
  let address = 0;
  /** An address of each test's own (the app believes X-Forwarded-For), so that wrong-token counts stay apart. */
  const nextAddress = () => `192.0.2.${++address}`;

  const get = (path: string, token: string, from = nextAddress()) => request(app).get(path).set('Authorization', `Bearer ${token}`).set('X-Forwarded-For', from);

  beforeAll(async () => {
    issuer = await startTokenIssuer();
    stack = await startStack('access_tokens', {
      env: { CURATOR_TOKEN, OIDC_ISSUER: issuer.url, OIDC_API_AUDIENCE: AUDIENCE, OIDC_CURATOR_ROLE: 'curator', TRUST_PROXY: 'true' },
    });
    app = stack.registryApp({ registration: regexpChecks }).callback();
  }, 60_000);

  afterAll(async () => {
    await issuer?.close();
    await stack?.close();
  });

  it('lets a curator’s access token curate, and records the curator by name, issuer and subject', async () => {
    const token = await issuer.sign(curatorClaims());
    expect((await get(SUMMARY, token)).status).toBe(200);

    // The reference app's curation page: a comment on a registration request.
    const submitted = await request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration(unique('at')) });
    const sessionId = (await stack.db('prefixRegistrationSessions').where({ token: submitted.body.payload.token }).first())!.id;
    const commented = await request(app)
      .post(`/prefixRegistrationApi/commentPrefixRegistrationRequest/${sessionId}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ apiVersion: '1.0', payload: { comment: 'Looks right', additionalInformation: 'Source: curation web interface' } });
    expect(commented.status).toBe(200);
    const event = await stack.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'COMMENT' }).first();
    expect(event.actor).toBe('olivia');

    // A registry edit: the curation log has who it was at the provider.
    const patched = await request(app)
      .patch('/restApi/namespaces/1100')
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'ORCID, by access token' }));
    expect(patched.status).toBe(204);
    const logged = await stack.db('curationEvents').where({ entity: 'namespace', entityId: 1100 }).orderBy('id', 'desc').first();
    expect(logged).toMatchObject({ actor: 'olivia', actorKind: 'oidc', actorIssuer: issuer.url, actorSubject: 'f1a2b3c4-curator' });
  });

  it('takes the curator role from the audience client’s roles, from groups, or from a roles claim', async () => {
    const holders = [
      { realm_access: { roles: [] }, resource_access: { [AUDIENCE]: { roles: ['curator'] } } },
      { realm_access: undefined, groups: ['/staff', '/curator'] },
      { realm_access: undefined, roles: ['curator'] },
    ];
    for (const claims of holders) {
      const res = await get(SUMMARY, await issuer.sign(curatorClaims(claims)));
      expect([claims, res.status]).toEqual([claims, 200]);
    }
  });

  it('answers 401 invalid_token, saying what is wrong, to a token that is expired, wrongly signed, foreign or misdirected', async () => {
    const otherKey = await issuer.newKey();
    const cases: [string, Promise<string>, string][] = [
      ['expired', issuer.sign(curatorClaims(), { expiresIn: -120 }), 'The access token has expired'],
      ['signed by another key under the provider’s kid', issuer.sign(curatorClaims(), { key: otherKey, kid: issuer.kid }), 'The access token\'s signature is not valid'],
      ['signed by a key the provider does not publish', issuer.sign(curatorClaims(), { key: otherKey }), 'The access token is signed with a key its issuer does not publish'],
      ['for another audience', issuer.sign(curatorClaims({ aud: 'account' })), `The access token is not meant for this registry (its audience is not ${AUDIENCE})`],
      ['from another issuer', issuer.sign(curatorClaims({ iss: 'https://login.example.org/realms/other' })), `The access token was not issued by ${issuer.url}`],
      ['an ID token', issuer.sign(curatorClaims({ typ: 'ID', aud: AUDIENCE })), 'The bearer token is not an access token (an ID token, say)'],
      [
        'signed with the shared-secret algorithm',
        new SignJWT(curatorClaims({ iss: issuer.url, exp: Math.floor(Date.now() / 1000) + 300 })).setProtectedHeader({ alg: 'HS256' }).sign(randomBytes(32)),
        'The access token is not signed with an algorithm this registry accepts (RS, PS, ES or EdDSA)',
      ],
      ['unsigned (alg none)', Promise.resolve(unsigned(curatorClaims({ iss: issuer.url }))), 'The access token is not signed with an algorithm this registry accepts (RS, PS, ES or EdDSA)'],
    ];
    for (const [what, token, message] of cases) {
      const res = await get(SUMMARY, await token);
      expect([what, res.status, res.body.errorMessage, res.headers['cache-control']]).toEqual([what, 401, message, 'no-store']);
      expect(res.headers['www-authenticate']).toBe(`Bearer realm="curation", error="invalid_token", error_description="${message}"`);
    }
  });

  it('answers 403 insufficient_scope to a valid token without the curator role (another client’s role of that name included)', async () => {
    const withoutRole = [
      { realm_access: { roles: ['offline_access'] } },
      { realm_access: undefined, resource_access: { 'other-app': { roles: ['curator'] } } },
    ];
    for (const claims of withoutRole) {
      const res = await get(SUMMARY, await issuer.sign(curatorClaims({ ...claims, preferred_username: 'ned' })));
      expect([res.status, res.body.errorMessage]).toEqual([403, `ned is not a curator of this registry: the access token from ${new URL(issuer.url).host} does not carry the curator role`]);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="curation", error="insufficient_scope", error_description="ned is not a curator/);
    }
    // Where a curator sees more and anyone may read, a non-curator's token reads as anyone's.
    const [person] = (await stack.db('persons').insert({ fullName: 'Ada Contact', email: 'ada.contact@example.org' }).returning('id')) as { id: number }[];
    const asNed = await get(`/restApi/persons/${person!.id}`, await issuer.sign(curatorClaims({ realm_access: { roles: [] } })));
    expect(asNed.status).toBe(200);
    expect(asNed.body.email).toBeUndefined();
    const asOlivia = await get(`/restApi/persons/${person!.id}`, await issuer.sign(curatorClaims()));
    expect(asOlivia.body.email).toBe('ada.contact@example.org');
  });

  it('still takes the curator token, and refuses other tokens that are no JWT as before', async () => {
    expect((await get(SUMMARY, CURATOR_TOKEN)).status).toBe(200);
    const wrong = await get(SUMMARY, 'not-the-token');
    expect([wrong.status, wrong.body.errorMessage]).toEqual([403, 'The bearer token is not the curator token']);
    const none = await request(app).get(SUMMARY);
    expect([none.status, none.headers['www-authenticate'], none.body.errorMessage]).toEqual([
      401,
      'Bearer realm="curation"',
      'Curation needs a bearer token: send Authorization: Bearer <access token>, as the sign-in provider gave it',
    ]);
  });

  it('counts refused access tokens towards the wrong-token throttle, and still lets a curator’s token in', async () => {
    const from = nextAddress();
    const expired = await issuer.sign(curatorClaims(), { expiresIn: -120 });
    for (let i = 0; i < 10; i++) expect((await get(SUMMARY, expired, from)).status).toBe(401);
    const throttled = await get(SUMMARY, expired, from);
    expect([throttled.status, throttled.headers['retry-after']]).toEqual([429, '1']);
    expect((await get(SUMMARY, await issuer.sign(curatorClaims()), from)).status).toBe(200);
  });

  it('reads the provider’s keys again for a token naming a new key, but not for every made-up key', async () => {
    const before = issuer.keySetReads();
    for (let i = 0; i < 20; i++) {
      const res = await get(SUMMARY, await issuer.sign(curatorClaims(), { kid: `made-up-${i}` }));
      expect(res.status).toBe(401);
    }
    expect(issuer.keySetReads() - before).toBeLessThanOrEqual(1);

    // A rotation: the provider publishes a new key and signs with it. The app above would wait out its
    // half-minute cool-down; a check with a short one shows the new key is read and taken.
    const tokens = new AccessTokens({ issuer: issuer.url, audience: AUDIENCE, curatorRoles: ['curator'], userAgent: 'test', logger: createLogger('silent', 'test'), keyReadCooldownMs: 200 });
    expect(await tokens.verify(await issuer.sign(curatorClaims()))).toHaveProperty('curator.name', 'olivia');
    const rotated = await issuer.newKey();
    issuer.publish(rotated);
    const signedWithNew = await issuer.sign(curatorClaims(), { key: rotated });
    await waitFor(async () => 'curator' in (await tokens.verify(signedWithNew)), { timeoutMs: 10_000, what: 'the new key taken' });
  });

  it('answers 503 with Retry-After when the provider’s keys cannot be read', async () => {
    const unreachable = stack.registryApp({ env: { OIDC_ISSUER: 'http://127.0.0.1:9' } }).callback();
    const res = await request(unreachable).get(SUMMARY).set('Authorization', `Bearer ${await issuer.sign(curatorClaims({ iss: 'http://127.0.0.1:9' }))}`);
    expect([res.status, res.headers['retry-after'], res.body.errorMessage]).toEqual([
      503,
      '30',
      'The sign-in provider 127.0.0.1:9 cannot be reached to check the access token; try again shortly',
    ]);
  });

  it('keeps curation on with access tokens alone (no CURATOR_TOKEN), and answers 401 to a token that is no JWT', async () => {
    const tokensOnly = stack.registryApp({ env: { CURATOR_TOKEN: '' } }).callback();
    expect((await request(tokensOnly).get(SUMMARY).set('Authorization', `Bearer ${await issuer.sign(curatorClaims())}`)).status).toBe(200);
    const res = await request(tokensOnly).get(SUMMARY).set('Authorization', `Bearer ${CURATOR_TOKEN}`).set('X-Forwarded-For', nextAddress());
    expect([res.status, res.body.errorMessage, res.headers['www-authenticate']]).toEqual([
      401,
      'The bearer token is not an access token (a JWT)',
      'Bearer realm="curation", error="invalid_token", error_description="The bearer token is not an access token (a JWT)"',
    ]);
  });

  it('without OIDC_API_AUDIENCE takes a JWT as a wrong curator token, as before', async () => {
    const off = stack.registryApp({ env: { OIDC_ISSUER: '', OIDC_API_AUDIENCE: '', OIDC_CURATOR_ROLE: '' } }).callback();
    const res = await request(off).get(SUMMARY).set('Authorization', `Bearer ${await issuer.sign(curatorClaims())}`).set('X-Forwarded-For', nextAddress());
    expect([res.status, res.body.errorMessage, res.headers['www-authenticate']]).toEqual([403, 'The bearer token is not the curator token', undefined]);
    const none = await request(off).get(SUMMARY);
    expect(none.body.errorMessage).toBe('Curation needs a bearer token: send Authorization: Bearer <curator token>');
  });
});

/** An unsecured JWT (RFC 7519 §6): header alg none, no signature. */
function unsigned(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, exp: Math.floor(Date.now() / 1000) + 300 })}.`;
}
