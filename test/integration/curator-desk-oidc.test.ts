/**
 * The curator desk's OpenID Connect sign-in against a real provider on loopback (the oidc-provider
 * package, on 127.0.0.1): the authorization code flow with PKCE, followed here request by request as a
 * browser would (the provider's interaction is answered by the test as the signed-in person). A curator
 * named in OIDC_CURATORS (by verified e-mail or by subject) gets a desk session, and what they do is
 * recorded with their name, the issuer and their subject; anyone else, a callback without the browser's
 * state, and a replayed callback are refused.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http, { type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KoaContextWithOIDC } from 'oidc-provider';
import request from 'supertest';
import { prefixRegistration, unique } from '../factories/registration.factory.js';
import { REGISTRY_URL, startStack, type AreaStack } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CLIENT_ID = 'registry-desk';
const CLIENT_SECRET = randomBytes(24).toString('hex');
const CALLBACK = `${REGISTRY_URL}/curation/oidc/callback`;

interface Person {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

const OLIVIA: Person = { sub: 'sub-olivia', email: 'Olivia@Example.org', emailVerified: true, name: 'Olivia Curator' };
const BOB: Person = { sub: 'sub-bob', email: 'bob@example.org', emailVerified: false, name: 'Bob By-Subject' };
const MALLORY: Person = { sub: 'sub-mallory', email: 'olivia@example.org', emailVerified: false, name: 'Mallory' };

const cookiesOf = (headers: Headers | Record<string, unknown>): string[] =>
  headers instanceof Headers ? headers.getSetCookie() : ((headers['set-cookie'] as string[] | undefined) ?? []);

describe('the curator desk with OpenID Connect', () => {
  let stack: AreaStack;
  let app: RequestListener;
  let server: http.Server;
  let issuer: string;
  /** Who the provider signs in next (the test plays the person at the provider). */
  let person: Person = OLIVIA;
  const people = new Map([OLIVIA, BOB, MALLORY].map((p) => [p.sub, p]));

  // oidc-provider's advice for production deployments (storage, lifetimes, runtime) is noise in a test.
  const { warn, info } = console;
  const quiet =
    (write: (...args: unknown[]) => void) =>
    (...args: unknown[]) => {
      if (typeof args[0] !== 'string' || !args[0].startsWith('oidc-provider ')) write(...args);
    };

  beforeAll(async () => {
    console.warn = quiet(warn);
    console.info = quiet(info);
    // Imported here, so that its warning about the Node.js version (it supports 22 and later) is quieted too.
    const { default: Provider } = await import('oidc-provider');
    server = http.createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT_ID,
          client_secret: CLIENT_SECRET,
          redirect_uris: [CALLBACK],
          token_endpoint_auth_method: 'client_secret_post',
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [privateKey.export({ format: 'jwk' }) as never] },
      cookies: { keys: [randomBytes(16).toString('hex')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx: KoaContextWithOIDC, sub: string) => {
        const found = people.get(sub)!;
        return { accountId: sub, claims: async () => ({ sub, email: found.email, email_verified: found.emailVerified, name: found.name }) };
      },
    });
    // The person signs in and consents at once: the interaction is finished for them.
    provider.use(async (ctx, next) => {
      const match = /^\/interaction\/([^/]+)$/.exec(ctx.path);
      if (!match) return next();
      const details = await provider.interactionDetails(ctx.req, ctx.res);
      const grant = new provider.Grant({ accountId: person.sub, clientId: details.params.client_id as string });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: person.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
      ctx.respond = false;
    });
    server.on('request', provider.callback());

    stack = await startStack('desk_oidc', {
      env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_CURATORS: `olivia@example.org, ${BOB.sub}` },
    });
    app = stack.registryApp({ registration: regexpChecks }).callback();
  }, 60_000);

  afterAll(async () => {
    console.warn = warn;
    console.info = info;
    server?.closeAllConnections();
    server?.close();
    await stack?.close();
  });

  /** The provider's side of a sign-in, followed redirect by redirect with its cookies, to the registry's callback. */
  async function atProvider(authorizationUrl: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = authorizationUrl;
    for (let hop = 0; hop < 10; hop++) {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const cookie of cookiesOf(res.headers)) {
        const [pair] = cookie.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      const location = res.headers.get('location');
      expect(location).not.toBeNull();
      const next = new URL(location!, url);
      if (next.href.startsWith(CALLBACK)) return next;
      url = next.href;
    }
    throw new Error('The provider never sent the browser back');
  }

  /** From the sign-in page's button to the registry's callback: the callback address and the state cookie. */
  async function startSignIn(): Promise<{ callback: URL; flowCookie: string }> {
    const page = await request(app).get('/curation/sign-in').set('Accept', HTML);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`Sign in with ${new URL(issuer).host}</button>`);
    expect(page.text).not.toContain('curator-token');
    const csrfCookie = cookiesOf(page.headers).find((c) => c.startsWith('registry_csrf='))!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const start = await request(app).post('/curation/oidc/start').set('Accept', HTML).set('Cookie', csrfCookie).type('form').send({ csrf });
    expect(start.status).toBe(303);
    const authorization = new URL(start.headers.location!);
    expect(authorization.origin).toBe(issuer);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorization.searchParams.get('redirect_uri')).toBe(CALLBACK);
    const flow = cookiesOf(start.headers).find((c) => c.startsWith('registry_curator_oidc='))!;
    expect(flow).toMatch(/; path=\/curation\/oidc; expires=[^;]+; samesite=lax; httponly$/);
    return { callback: await atProvider(authorization.href), flowCookie: flow.split(';')[0]! };
  }

  const callback = (url: URL, cookie?: string) => {
    const get = request(app).get(`${url.pathname}${url.search}`).set('Accept', HTML);
    return cookie ? get.set('Cookie', cookie) : get;
  };

  it('signs a curator in by verified e-mail, and records what they do with the issuer and subject', async () => {
    person = OLIVIA;
    const { callback: back, flowCookie } = await startSignIn();
    const res = await callback(back, flowCookie);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<meta http-equiv="refresh" content="0;url=/curation"/>');
    expect(res.text).toContain('Welcome, Olivia Curator.');
    const session = cookiesOf(res.headers).find((c) => c.startsWith('registry_curator='))!;
    expect(session).toMatch(/; path=\/curation; expires=[^;]+; samesite=strict; httponly$/);
    const cookie = session.split(';')[0]!;
    const stored = await stack.db('curatorSessions').where({ curatorSubject: OLIVIA.sub }).first();
    expect(stored).toMatchObject({ curatorName: 'Olivia Curator', curatorKind: 'oidc', curatorIssuer: issuer });

    const desk = await request(app).get('/curation').set('Accept', HTML).set('Cookie', cookie);
    expect(desk.status).toBe(200);
    expect(desk.text).toContain('Signed in as <strong>Olivia Curator</strong>');
    const csrf = /name="csrf" value="([^"]+)"/.exec(desk.text)![1]!;

    // A comment on a request: the session event's actor is the person's name.
    const submitted = await request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration(unique('do')) });
    const sessionId = (await stack.db('prefixRegistrationSessions').where({ token: submitted.body.payload.token }).first())!.id;
    const commented = await request(app)
      .post(`/curation/requests/prefix/${sessionId}/comment`)
      .set('Accept', HTML)
      .set('Cookie', cookie)
      .type('form')
      .send({ csrf, text: 'Signed in with OpenID Connect' });
    expect(commented.status).toBe(303);
    const event = await stack.db('prefixRegistrationSessionEvents').where({ sessionId, eventName: 'COMMENT' }).first();
    expect(event.actor).toBe('Olivia Curator');

    // A registry edit: the curation log has the issuer and subject.
    const taxonomy = (await stack.db('namespaces').where({ prefix: 'taxonomy' }).first())!;
    const edited = await request(app)
      .post(`/curation/namespaces/${taxonomy.id}/edit`)
      .set('Accept', HTML)
      .set('Cookie', cookie)
      .type('form')
      .send({
        csrf,
        modified: taxonomy.modified.toISOString(),
        prefix: taxonomy.prefix,
        name: `${taxonomy.name} (edited)`,
        description: taxonomy.description,
        pattern: taxonomy.pattern,
        sampleId: taxonomy.sampleId,
      });
    expect(edited.status).toBe(303);
    const logged = await stack.db('curationEvents').where({ entity: 'namespace', entityId: taxonomy.id }).orderBy('id', 'desc').first();
    expect(logged).toMatchObject({ actor: 'Olivia Curator', actorKind: 'oidc', actorIssuer: issuer, actorSubject: OLIVIA.sub });
    expect(Object.keys(logged.changes)).toEqual(['name']);
  });

  it('signs a curator in by subject, whatever their e-mail', async () => {
    person = BOB;
    const { callback: back, flowCookie } = await startSignIn();
    const res = await callback(back, flowCookie);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Welcome, Bob By-Subject.');
  });

  it('refuses someone who is not a curator, even with a curator’s e-mail that the provider has not verified', async () => {
    person = MALLORY;
    const { callback: back, flowCookie } = await startSignIn();
    const res = await callback(back, flowCookie);
    expect(res.status).toBe(403);
    expect(res.text).toContain('Mallory signed in at');
    expect(res.text).toContain("is not one of this registry's curators (OIDC_CURATORS)");
    expect(cookiesOf(res.headers).some((c) => c.startsWith('registry_curator='))).toBe(false);
  });

  it('refuses a callback without the browser’s state cookie, and a callback used twice', async () => {
    person = OLIVIA;
    const { callback: back, flowCookie } = await startSignIn();
    const noCookie = await callback(back);
    expect(noCookie.status).toBe(403);
    expect(noCookie.text).toContain('The sign-in was not started in this browser');
    const first = await callback(back, flowCookie);
    expect(first.status).toBe(200);
    const replay = await callback(back, flowCookie);
    expect(replay.status).toBe(403);
    expect(replay.text).toContain('The sign-in was already used, or took too long');
  });

  it('says so when the provider refuses the sign-in', async () => {
    person = OLIVIA;
    const { flowCookie } = await startSignIn();
    const state = decodeURIComponent(flowCookie.split('=')[1]!);
    // What the provider sends back when the person cancels.
    const pending = new URL(`${CALLBACK}?error=access_denied&error_description=${encodeURIComponent('The person cancelled')}&state=${state}&iss=${encodeURIComponent(issuer)}`);
    const res = await callback(pending, flowCookie);
    expect(res.status).toBe(403);
    expect(res.text).toContain('did not complete: The person cancelled');
  });
});
