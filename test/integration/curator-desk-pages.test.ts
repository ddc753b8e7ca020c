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

describe('the navigation', () => {
  it('is one bar, the desk’s, in the header of every desk page: no public navigation above it', async () => {
    for (const path of ['/curation', '/curation/warnings', '/curation/institutions', '/curation/registry']) {
      const page = await getPage(path);
      expect([path, page.status]).toEqual([path, 200]);
      expect([path, navigationsOf(page.text)]).toEqual([path, ['<nav aria-label="Curator desk">']]);
      const header = headerOf(page.text);
      for (const link of ['Requests', 'Warnings', 'Registry maintenance', 'Institutions', 'Queues']) expect(header).toContain(`>${link}</a>`);
      expect(header).toContain(`Signed in as <strong>${CURATOR_NAME}</strong>`);
      expect(header).not.toContain('Browse the registry');
    }
    expect(headerOf((await getPage('/curation/warnings')).text)).toContain('<a href="/curation/warnings" aria-current="page">Warnings</a>');
    // The public pages keep the site's navigation.
    const home = await request(app).get('/').set('Accept', HTML_ACCEPT);
    expect(navigationsOf(home.text)).toEqual(['<nav aria-label="Main">']);
  });
});

describe('the curation warnings', () => {
  it('shows the open warnings as a table of namespaces and institutions, each with its warnings’ details, linked to the records', async () => {
    const jax = (await t.db('institutions').where({ name: 'The Jackson Laboratory' }).first())!;
    const taxonomy = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first())!;
    const provider = (await t.db('resources').where({ namespaceId: taxonomy.id }).orderBy('id').first())!;
    const notified = await request(app)
      .post('/curationApi/notifications')
      .set('Authorization', BEARER)
      .send({
        apiVersion: '1.0',
        payload: [
          {
            targetType: 'institution',
            targetId: jax.id,
            globalId: `url-not-ok:institution:home-url:${jax.id}`,
            type: 'url-not-ok',
            details: { url: 'https://jax.example.org/gone', 'http-status': 404, error: 'Not Found' },
          },
          { targetType: 'resource', targetId: provider.id, globalId: `low-availability-resource:${provider.id}`, type: 'low-availability-resource', details: { availability: '12' } },
          { targetType: 'namespace', targetId: taxonomy.id, globalId: `curator-review:namespace:description:${taxonomy.id}`, type: 'curator-review', details: { 'field-name': 'description' } },
        ],
      });
    expect(notified.status).toBe(200);

    const page = await getPage('/curation/warnings');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<h1>Curation warnings</h1>');
    expect(page.text).toContain('2 namespaces and institutions with open warnings');
    // The institution's row: its counts; below it, its warning with the details, the URL a link.
    const jaxRow = new RegExp(
      `<tr><th scope="row"><span class="muted">Institution</span> <a href="/curation/institutions/${jax.id}">The Jackson Laboratory</a></th><td><span class="muted">—</span></td><td>1</td><td>0</td><td><span class="muted">No</span></td><td><span class="muted">No</span></td></tr>`,
    );
    expect(page.text).toMatch(jaxRow);
    expect(page.text).toContain('<summary>1 open warning of The Jackson Laboratory</summary>');
    expect(page.text).toContain(`<strong>Failing URL</strong> about institution <a href="/curation/institutions/${jax.id}">The Jackson Laboratory</a>`);
    expect(page.text).toContain('<dt>url</dt><dd><a href="https://jax.example.org/gone" rel="nofollow noopener">https://jax.example.org/gone</a></dd>');
    expect(page.text).toContain('<dt>http-status</dt><dd>404</dd>');
    // The namespace's row counts its provider's warning too; both are listed under it.
    expect(page.text).toMatch(/<tr><th scope="row"><span class="muted">Namespace<\/span> <a href="\/curation\/namespaces\/taxonomy"><code>taxonomy<\/code><\/a><span class="target-name"> [^<]+<\/span><\/th><td>0<\/td><td>0<\/td><td>1<\/td><td>Yes<\/td><td><span class="muted">No<\/span><\/td><\/tr>/);
    expect(page.text).toContain('<summary>2 open warnings of taxonomy</summary>');
    expect(page.text).toContain(`<strong>Provider rarely available</strong> about provider <a href="/curation/resources/${provider.id}">${provider.name}</a>`);
    expect(page.text).toContain('<strong>Waits for a curator’s value</strong> about namespace <a href="/curation/namespaces/taxonomy"><code>taxonomy</code></a>');
  });

  it('pages the table 25 namespaces and institutions at a time', async () => {
    const stem = unique('Warned institute ');
    const ids = (await t.db('institutions')
      .insert(Array.from({ length: 26 }, (_, i) => ({ name: `${stem} ${String(i).padStart(2, '0')}`, homeUrl: 'https://institute.example.org/', description: 'x', locationCountryCode: 'GB' })))
      .returning('id')) as { id: number }[];
    const payload = ids.map(({ id }) => ({ targetType: 'institution', targetId: id, globalId: `url-not-ok:institution:home-url:${id}`, type: 'url-not-ok', details: { url: 'https://x.example.org/' } }));
    expect((await request(app).post('/curationApi/notifications').set('Authorization', BEARER).send({ apiVersion: '1.0', payload })).status).toBe(200);
    const rowsOf = (html: string) => html.match(/<tr><th scope="row">/g)?.length ?? 0;
    const first = await getPage('/curation/warnings');
    expect(first.text).toContain('26 namespaces and institutions with open warnings');
    expect(rowsOf(first.text)).toBe(25);
    expect(first.text).toContain('<p>Page 1 of 2</p>');
    expect(first.text).toContain('<a href="/curation/warnings?page=1" rel="next">Next page</a>');
    const last = await getPage('/curation/warnings?page=99');
    expect(rowsOf(last.text)).toBe(1);
    expect(last.text).toContain(`${stem} 25</a>`);
  });
});

describe('the institutions', () => {
  const stem = unique('Listed institute ');
  let used: { id: number; name: string };

  beforeAll(async () => {
    await t.db('institutions').insert(
      Array.from({ length: 53 }, (_, i) => ({ name: `${stem} ${String(i).padStart(2, '0')}`, homeUrl: 'https://institute.example.org/', description: 'x', locationCountryCode: 'FR' })),
    );
    await t.db('institutions').insert({ name: `${stem} zz 100% real_name`, homeUrl: 'https://institute.example.org/', description: 'x', locationCountryCode: 'FR' });
    const resource = (await t.db('resources').orderBy('id').first())!;
    used = (await t.db('institutions').where({ id: resource.institutionId }).first('id', 'name'))!;
  });

  const rowsOf = (html: string) => [...html.matchAll(/<tr><td><a href="\/curation\/institutions\/(\d+)">([^<]+)<\/a><\/td>/g)].map((m) => m[2]!);

  it('lists them by name, 50 a page, found by any part of the name whatever its case', async () => {
    const all = await getPage('/curation/institutions');
    expect(all.status).toBe(200);
    expect(rowsOf(all.text)).toHaveLength(50);

    const found = await getPage(`/curation/institutions?q=${encodeURIComponent(stem.toUpperCase())}`);
    expect(found.text).toContain(`54 institutions whose name holds “${stem.toUpperCase()}”`);
    const first = rowsOf(found.text);
    expect(first).toEqual([...Array.from({ length: 50 }, (_, i) => `${stem} ${String(i).padStart(2, '0')}`)]);
    expect(found.text).toContain('<p>Page 1 of 2</p>');
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(found.text)![1]!.replace(/&amp;/g, '&');
    expect(next).toBe(`/curation/institutions?q=${encodeURIComponent(stem.toUpperCase()).replace(/%20/g, '+')}&page=1`);
    expect(rowsOf((await getPage(next)).text)).toEqual([`${stem} 50`, `${stem} 51`, `${stem} 52`, `${stem} zz 100% real_name`]);

    // % and _ are the name's own characters, not patterns.
    expect(rowsOf((await getPage(`/curation/institutions?q=${encodeURIComponent('100% real_')}`)).text)).toEqual([`${stem} zz 100% real_name`]);
    expect(rowsOf((await getPage('/curation/institutions?q=%25%25%25')).text)).toEqual([]);
    expect(rowsOf((await getPage(`/curation/institutions?q=${'x'.repeat(5000)}`)).text)).toEqual([]);
  });

  it('offers to delete only an institution no provider uses', async () => {
    const page = await getPage(`/curation/institutions?q=${encodeURIComponent(used.name)}`);
    const usedRow = new RegExp(`<tr><td><a href="/curation/institutions/${used.id}">[^<]+</a></td>.*?</tr>`).exec(page.text)![0];
    expect(usedRow).toContain('In use');
    expect(usedRow).not.toContain('/delete');
    const unused = (await t.db('institutions').where({ name: `${stem} 00` }).first())!;
    const listed = await getPage(`/curation/institutions?q=${encodeURIComponent(`${stem} 00`)}`);
    expect(listed.text).toContain(
      `<form method="post" action="/curation/institutions/${unused.id}/delete" class="desk-action"><input type="hidden" name="csrf" value="${csrf}"/><button type="submit" class="danger">Delete<span class="visually-hidden"> ${stem} 00</span></button></form>`,
    );
    expect((await getPage(`/curation/institutions/${unused.id}`)).text).toContain('Delete the institution</button>');
    expect((await getPage(`/curation/institutions/${used.id}`)).text).toContain('It cannot be deleted while providers use it.');
  });

  it('deletes an unused institution, logged with the curator; refuses a forged form', async () => {
    const unused = (await t.db('institutions').where({ name: `${stem} 01` }).first())!;
    const forged = await postDesk(`/curation/institutions/${unused.id}/delete`, { csrf: 'x'.repeat(43) });
    expect(forged.status).toBe(403);
    const noToken = await request(app).post(`/curation/institutions/${unused.id}/delete`).set('Cookie', cookie).type('form').send({});
    expect(noToken.status).toBe(403);
    expect(await t.db('institutions').where({ id: unused.id }).first()).toBeDefined();

    const res = await postDesk(`/curation/institutions/${unused.id}/delete`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/curation/institutions?done=delete');
    expect(await t.db('institutions').where({ id: unused.id }).first()).toBeUndefined();
    const logged = await t.db('curationEvents').where({ entity: 'institution', entityId: unused.id }).first();
    expect(logged).toMatchObject({ action: 'institution.delete', actor: CURATOR_NAME, actorKind: 'token', entityLabel: `${stem} 01` });
    expect(logged.changes.name).toEqual({ from: `${stem} 01`, to: null });
    expect((await getPage(res.headers.location!)).text).toContain('The institution was deleted.');
    expect((await postDesk(`/curation/institutions/${unused.id}/delete`)).status).toBe(404);
  });

  it('refuses with 409 to delete an institution a provider uses, saying so on its page', async () => {
    const users = Number(((await t.db('resources').where({ institutionId: used.id }).count({ n: '*' }).first()) as { n: string }).n);
    const res = await postDesk(`/curation/institutions/${used.id}/delete`);
    expect(res.status).toBe(409);
    expect(res.text).toContain(`<h1>Institution ${used.name}</h1>`);
    expect(res.text).toContain(`The institution cannot be deleted: ${users} provider${users === 1 ? ' uses' : 's use'} it.`);
    expect(await t.db('institutions').where({ id: used.id }).first()).toBeDefined();
    expect(await t.db('curationEvents').where({ entity: 'institution', entityId: used.id, action: 'institution.delete' })).toEqual([]);
  });
});

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
