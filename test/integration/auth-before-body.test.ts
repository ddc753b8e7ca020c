/**
 * Issue 21 item 5: no route for curators reads a body before it knows the caller is one. Every documented
 * curator and desk operation that takes a body, and the queue board's actions, are sent 16 MiB bodies by a
 * caller without the token or a session: the server must refuse them as it refuses any anonymous caller
 * while the client has sent only the first chunk (the rest is never sent). The routers' own order is checked
 * too, for routes the document may not list. The forms anyone may post (sign-in, sign-out, OpenID Connect)
 * are read within a few KiB, and a signed-in curator's prefix list within its documented bound.
 */
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { buildOpenApiDocument, SERVICE_VERSION } from '../../src/openapi/openapi-document.js';
import { QUEUE_BOARD_PATH } from '../../src/registry/queue-board/queue-board-access.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { HTML_ACCEPT, signInAtDesk } from '../support/desk-session.js';
import { operationsOf } from '../support/openapi-validator.js';
import { sendPartialBody, startRawServer, type RawServer } from '../support/raw-http.js';

const CURATOR_TOKEN = randomBytes(24).toString('hex');
const SIXTEEN_MIB = 16 * 1024 * 1024;
const FIRST_CHUNK = Buffer.alloc(64 * 1024, 'a');
// Only a failure detector: a server that waits for the rest of the body never answers at all.
const NO_ANSWER_MS = 10_000;
const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Names of the middleware that read a body, and of those that check a curator (auth-before-body.ts). */
const BODY_READERS = new Set(['readFormBody', 'readJsonBody', 'readTextBody']);
const CURATOR_GUARDS = new Set(['curatorOnly', 'signedInOnly']);

interface Target {
  route: string;
  method: string;
  path: string;
  type: string;
}

/** Every documented write for curators (the bearer token or a desk session), with a path from its examples. */
function curatorWrites(): Target[] {
  const document = buildOpenApiDocument('registry', { serverUrl: 'https://registry.test', version: SERVICE_VERSION });
  return operationsOf(document)
    .filter(({ method, operation }) => WRITE_METHODS.has(method) && operation.security.some((s) => 'curatorToken' in s || 'deskSession' in s))
    .map(({ path, method, operation }) => ({
      route: `${method.toUpperCase()} ${path}`,
      method: method.toUpperCase(),
      path: path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(operation.parameters?.find((p) => p.name === name)?.example ?? '1'))),
      type: Object.keys(operation.requestBody?.content ?? {})[0] ?? 'application/json',
    }));
}

const QUEUE_BOARD_ACTION: Target = {
  route: 'PUT queue board action',
  method: 'PUT',
  path: `${QUEUE_BOARD_PATH}/api/queues/dataset/retry/failed`,
  type: 'application/json',
};

/** Each route layer of the app's routers: its path, methods and the names of its middleware in order. */
function routeLayers(koa: Koa): { route: string; names: string[] }[] {
  const layers: { route: string; names: string[] }[] = [];
  for (const middleware of koa.middleware as unknown as { router?: { stack: { methods: string[]; path: string | RegExp; stack: { name: string }[] }[] } }[]) {
    for (const layer of middleware.router?.stack ?? []) {
      layers.push({ route: `${layer.methods.join(',')} ${String(layer.path)}`, names: layer.stack.map((fn) => fn.name) });
    }
  }
  return layers;
}

describe('authentication before the body', () => {
  let t: RegistryUnderTest;
  let server: RawServer;

  beforeAll(async () => {
    t = await startRegistry('auth_before_body', { env: { CURATOR_TOKEN } });
    server = await startRawServer(t.app);
  });

  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const sendSixteenMiB = (target: Target, headers: Record<string, string> = {}) =>
    sendPartialBody(server.port, {
      method: target.method,
      path: target.path,
      headers: { 'Content-Type': target.type, Accept: target.type.startsWith('application/x-www-form') ? HTML_ACCEPT : 'application/json', ...headers },
      declaredLength: SIXTEEN_MIB,
      firstChunk: FIRST_CHUNK,
      timeoutMs: NO_ANSWER_MS,
    });

  it('documents curator writes of every kind: the token APIs and the desk forms', () => {
    const routes = curatorWrites().map((target) => target.route);
    expect(routes).toEqual(expect.arrayContaining(['POST /curation/reference-prefixes', 'PATCH /restApi/namespaces/{id}', 'POST /curationApi/notifications']));
  });

  it('answers 401 to an anonymous 16 MiB write on every curator route while only its first chunk is sent', async () => {
    const answers: string[] = [];
    for (const target of [...curatorWrites(), QUEUE_BOARD_ACTION]) {
      const res = await sendSixteenMiB(target);
      answers.push(`${target.route} → ${res.status}`);
    }
    expect(answers.filter((answer) => !answer.endsWith('→ 401'))).toEqual([]);
  });

  it('answers 403 to a wrong bearer token on the token APIs while only the first chunk of a 16 MiB body is sent', async () => {
    const tokenApis = curatorWrites().filter((target) => !target.path.startsWith('/curation/'));
    expect(tokenApis.length).toBeGreaterThan(5);
    // Fewer wrong tries than the throttle lets through, so that each is answered 403.
    for (const target of tokenApis.slice(0, 5)) {
      const res = await sendSixteenMiB(target, { Authorization: 'Bearer not-the-curator-token' });
      expect(`${target.route} → ${res.status}`).toBe(`${target.route} → 403`);
    }
  });

  it('closes the connection after refusing a body it has not read, rather than read the rest of it, and keeps it open after a whole body', async () => {
    const target = curatorWrites().find((w) => w.route === 'POST /curation/reference-prefixes')!;
    const refused = await sendSixteenMiB(target);
    expect(refused.status).toBe(401);
    expect(refused.headers.connection).toBe('close');
    const small = Buffer.from('source=x');
    const whole = await sendPartialBody(server.port, {
      method: target.method,
      path: target.path,
      // A client without an agent asks for the connection to close; this one asks to keep it.
      headers: { 'Content-Type': target.type, Accept: HTML_ACCEPT, Connection: 'keep-alive' },
      declaredLength: small.length,
      firstChunk: small,
      timeoutMs: NO_ANSWER_MS,
    });
    expect(whole.status).toBe(401);
    expect(whole.headers.connection).toBe('keep-alive');
  });

  it('answers 401 to a desk form with an unknown session cookie before reading its body', async () => {
    const res = await sendSixteenMiB(curatorWrites().find((target) => target.route === 'POST /curation/reference-prefixes')!, { Cookie: 'registry_curator=not-a-session' });
    expect(res.status).toBe(401);
    expect(res.text).toContain('Your session has ended');
  });

  it('checks the curator ahead of every body reader in the routers', () => {
    const guarded = routeLayers(t.koa).filter(({ names }) => names.some((name) => CURATOR_GUARDS.has(name)));
    expect(guarded.length).toBeGreaterThan(20);
    const misordered = guarded.filter(({ names }) => {
      const reader = names.findIndex((name) => BODY_READERS.has(name));
      return reader !== -1 && reader < names.findIndex((name) => CURATOR_GUARDS.has(name));
    });
    expect(misordered.map(({ route }) => route)).toEqual([]);
  });

  it('refuses a 16 MiB sign-in or OpenID Connect form with 413 before reading it', async () => {
    for (const path of ['/curation/sign-in', '/curation/oidc/start']) {
      const res = await sendSixteenMiB({ route: `POST ${path}`, method: 'POST', path, type: 'application/x-www-form-urlencoded' });
      expect(`${path} → ${res.status}`).toBe(`${path} → 413`);
      expect(res.text).toContain('Request body is larger than the limit of 8 KiB');
    }
  });

  it('signs out a caller without a session without reading the body', async () => {
    const res = await sendSixteenMiB({ route: 'POST /curation/sign-out', method: 'POST', path: '/curation/sign-out', type: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/curation/sign-in?signedOut=1');
  });

  it('refuses a signed-in curator’s prefix list over 1 MiB with 413 before reading it', async () => {
    const cookie = await signInAtDesk(t.app, CURATOR_TOKEN);
    const res = await sendSixteenMiB({ route: 'POST /curation/reference-prefixes', method: 'POST', path: '/curation/reference-prefixes', type: 'application/x-www-form-urlencoded' }, { Cookie: cookie });
    expect(res.status).toBe(413);
    expect(res.text).toContain('Request body is larger than the limit of 1 MiB');
  });
});
