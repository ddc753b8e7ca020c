/**
 * Issue 23 item 7, the curator desk without a browser: one navigation bar on its pages; the curation
 * warnings as a table of namespaces and institutions with each one's warnings below; the institutions,
 * found by name a page at a time, an unused one deleted (CSRF-checked, logged with the curator) and a used
 * one refused with 409; an accepted request's new records showing the acceptance among their changes; a
 * request's web addresses as links (http and https only).
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { prefixRegistration, resourceRegistration, unique } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { HTML_ACCEPT, signInAtDesk } from '../support/desk-session.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const CURATOR_TOKEN = randomBytes(24).toString('hex');
const CURATOR_NAME = 'Ann Curator';
const BEARER = `Bearer ${CURATOR_TOKEN}`;

let t: RegistryUnderTest;
let app: RequestListener;
let cookie: string;
let csrf: string;

beforeAll(async () => {
  t = await startRegistry('desk_pages', { registration: regexpChecks, env: { CURATOR_TOKEN, CURATOR_NAME } });
  app = t.app;
  cookie = await signInAtDesk(app, CURATOR_TOKEN);
  csrf = /name="csrf" value="([^"]+)"/.exec((await getPage('/curation')).text)![1]!;
});

afterAll(() => t.close());

function getPage(path: string) {
  return request(app).get(path).set('Accept', HTML_ACCEPT).set('Cookie', cookie);
}

function postDesk(path: string, fields: Record<string, string> = {}) {
  return request(app).post(path).set('Accept', HTML_ACCEPT).set('Cookie', cookie).type('form').send({ csrf, ...fields });
}

async function submit(kind: 'prefix' | 'resource', payload: Record<string, unknown>): Promise<number> {
  const endpoint = kind === 'prefix' ? '/prefixRegistrationApi/registerPrefix' : '/resourceManagementApi/registerResource';
  const res = await request(app).post(endpoint).send({ apiVersion: '1.0', payload });
  expect(res.status).toBe(200);
  const table = kind === 'prefix' ? 'prefixRegistrationSessions' : 'resourceRegistrationSessions';
  return (await t.db(table).where({ token: res.body.payload.token }).first()).id as number;
}

const headerOf = (html: string) => /<header class="site-header">[\s\S]*?<\/header>/.exec(html)?.[0] ?? '';
/** The navigation landmarks of a page, but for the pagers of its lists. */
const navigationsOf = (html: string) => [...html.matchAll(/<nav(?![^>]*class="pages")[^>]*>/g)].map((m) => m[0]);

describe('an accepted request', () => {
  it('starts the new namespace’s and provider’s changes with the acceptance, by the curator who accepted', async () => {
    const prefix = unique('hc');
    const id = await submit('prefix', prefixRegistration(prefix, { institutionName: unique('New institute ') }));
    expect((await postDesk(`/curation/requests/prefix/${id}/accept`, { text: 'Complete' })).status).toBe(303);
    const namespace = (await t.db('namespaces').where({ prefix }).first())!;
    const resource = (await t.db('resources').where({ namespaceId: namespace.id }).first())!;

    const page = await getPage(`/curation/namespaces/${prefix}`);
    expect(page.text).not.toContain('No curator has changed it here yet.');
    expect(page.text).toMatch(new RegExp(`<strong>namespace.create</strong> by ${CURATOR_NAME}, <time[^>]*>[^<]+</time></p><p class="muted">Created by accepting prefix registration request ${id}: Complete</p>`));
    const logged = await t.db('curationEvents').where({ entity: 'namespace', entityId: namespace.id }).first();
    expect(logged).toMatchObject({ action: 'namespace.create', actor: CURATOR_NAME, actorKind: 'token', entityLabel: prefix });
    expect(logged.changes.prefix).toEqual({ from: null, to: prefix });
    expect((await getPage(`/curation/resources/${resource.id}`)).text).toContain(`<strong>resource.create</strong> by ${CURATOR_NAME}`);
    // The institution was new: its page says so too.
    expect((await getPage(`/curation/institutions/${resource.institutionId}`)).text).toContain(`<strong>institution.create</strong> by ${CURATOR_NAME}`);
  });

  it('starts a new provider’s changes with the acceptance through the API as well', async () => {
    const code = unique('hr');
    const id = await submit('resource', resourceRegistration(code));
    const accepted = await request(app).post(`/resourceManagementApi/acceptResourceRegistrationRequest/${id}`).set('Authorization', BEARER).send({ apiVersion: '1.0', payload: {} });
    expect(accepted.status).toBe(200);
    const resource = (await t.db('resources').where({ providerCode: code }).first())!;
    const page = await getPage(`/curation/resources/${resource.id}`);
    expect(page.text).toContain(`<strong>resource.create</strong> by ${CURATOR_NAME}`);
    expect(page.text).toContain(`Created by accepting resource registration request ${id}: No acceptance reason provided`);
  });
});

describe('a request’s page', () => {
  it('shows the request’s web addresses as links, other values and the URL pattern as text', async () => {
    const prefix = unique('hl');
    const id = await submit('prefix', prefixRegistration(prefix, { additionalInformation: 'Licence at https://licence.example.org/terms. Ask us.' }));
    // A value no form takes any more (an old import): never a link.
    const session = (await t.db('prefixRegistrationSessions').where({ id }).first())!;
    await t.db('prefixRegistrationRequests').where({ id: session.requestId }).update({ authHelpUrl: 'javascript:alert(1)' });
    const page = await getPage(`/curation/requests/prefix/${id}`);
    expect(page.status).toBe(200);
    const link = (url: string) => `<a href="${url}" rel="nofollow noopener">${url}</a>`;
    expect(page.text).toContain(`<dd>${link(`https://${prefix}.example.org/`)}</dd>`);
    expect(page.text).toContain(`<dd>${link('https://institute.example.org/')}</dd>`);
    expect(page.text).toContain(`<dd class="lines">${link('https://doi.org/10.1000/182')}</dd>`);
    expect(page.text).toContain(`<dd class="lines">Licence at ${link('https://licence.example.org/terms')}. Ask us.</dd>`);
    expect(page.text).toContain(`<dd><code>https://${prefix}.example.org/items/{$id}</code></dd>`);
    expect(page.text).toContain('<dd>javascript:alert(1)</dd>');
    expect(page.text).not.toContain('href="javascript:');
    // The URL checks' addresses lead to the pages checked.
    expect(page.text).toContain(`<a href="https://${prefix}.example.org/items/12345" rel="nofollow noopener"><code>https://${prefix}.example.org/items/12345</code></a>`);
  });
});
