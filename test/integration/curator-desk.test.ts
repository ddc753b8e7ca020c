/**
 * The curator desk (/curation) without a browser: what a browser's plain form posts get. Signing in with
 * the curator token (right, wrong, too many wrong: throttled, the right one still let in), the session cookie's flags, signing out, an expired
 * session, forms refused without the session's CSRF token or from another origin; each action on a request
 * (comment, amend, reject, accept) through the same curation service as the JSON API, recorded with the
 * signed-in curator; registry maintenance (edit with messages next to the fields, a stale form, successor,
 * deactivation and reactivation) logged with the curator. The JSON APIs keep taking the bearer token only.
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { prefixRegistration, resourceRegistration, unique } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CURATOR_TOKEN = randomBytes(24).toString('hex');
const CURATOR_NAME = 'Ann Curator';

interface Desk {
  /** The session cookie (name=value). */
  cookie: string;
  csrf: string;
}

const cookiesOf = (res: request.Response): string[] => (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
const csrfOf = (html: string): string => {
  const found = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  expect(found).toBeDefined();
  return found!;
};

describe('the curator desk', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;

  beforeAll(async () => {
    t = await startRegistry('desk', { registration: regexpChecks, env: { CURATOR_TOKEN, CURATOR_NAME } });
    app = t.app;
  });

  afterAll(async () => {
    await t.close();
  });

  /** The sign-in page's double-submit cookie and token. */
  async function openSignIn(listener = app): Promise<{ cookie: string; csrf: string }> {
    const res = await request(listener).get('/curation/sign-in').set('Accept', HTML);
    expect(res.status).toBe(200);
    const cookie = cookiesOf(res).find((c) => c.startsWith('registry_csrf='))!.split(';')[0]!;
    return { cookie, csrf: csrfOf(res.text) };
  }

  function postSignIn(form: { cookie: string; csrf: string }, token: string, listener = app, headers: Record<string, string> = {}) {
    return request(listener).post('/curation/sign-in').set('Accept', HTML).set('Cookie', form.cookie).set(headers).type('form').send({ csrf: form.csrf, token, next: '/curation' });
  }

  async function signIn(listener = app): Promise<Desk> {
    const res = await postSignIn(await openSignIn(listener), CURATOR_TOKEN, listener);
    expect(res.status).toBe(303);
    const cookie = cookiesOf(res).find((c) => c.startsWith('registry_curator='))!.split(';')[0]!;
    const page = await request(listener).get('/curation').set('Accept', HTML).set('Cookie', cookie);
    expect(page.status).toBe(200);
    return { cookie, csrf: csrfOf(page.text) };
  }

  const getPage = (desk: Desk, path: string) => request(app).get(path).set('Accept', HTML).set('Cookie', desk.cookie);
  const postDesk = (desk: Desk, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    request(app).post(path).set('Accept', HTML).set('Cookie', desk.cookie).set(headers).type('form').send({ csrf: desk.csrf, ...fields });

  async function submit(kind: 'prefix' | 'resource', payload: Record<string, unknown>): Promise<number> {
    const endpoint = kind === 'prefix' ? '/prefixRegistrationApi/registerPrefix' : '/resourceManagementApi/registerResource';
    const res = await request(app).post(endpoint).send({ apiVersion: '1.0', payload });
    expect(res.status).toBe(200);
    const table = kind === 'prefix' ? 'prefixRegistrationSessions' : 'resourceRegistrationSessions';
    const session = await t.db(table).where({ token: res.body.payload.token }).first();
    return session.id as number;
  }

  const eventsOf = (kind: 'prefix' | 'resource', sessionId: number) =>
    t.db(kind === 'prefix' ? 'prefixRegistrationSessionEvents' : 'resourceRegistrationSessionEvents').where({ sessionId }).orderBy('id');

  describe('signing in', () => {
    it('shows the token form with the page’s CSRF token, and sends an anonymous visitor there from any desk page', async () => {
      const form = await request(app).get('/curation/sign-in').set('Accept', HTML);
      expect(form.status).toBe(200);
      expect(form.headers['cache-control']).toBe('no-store');
      expect(form.headers['x-frame-options']).toBe('DENY');
      expect(form.text).toContain('<label for="curator-token">Curator token</label>');
      expect(form.text).toMatch(/<input type="password" id="curator-token" name="token"/);
      const desk = await request(app).get('/curation/requests/prefix/1?x=1').set('Accept', HTML);
      expect(desk.status).toBe(303);
      expect(desk.headers.location).toBe('/curation/sign-in?next=%2Fcuration%2Frequests%2Fprefix%2F1%3Fx%3D1');
    });

    it('refuses a wrong token without a session, and lets the right one in with an HttpOnly, SameSite=Strict cookie for /curation only', async () => {
      const form = await openSignIn();
      const wrong = await postSignIn(form, 'not-the-token');
      expect(wrong.status).toBe(401);
      expect(wrong.text).toContain('That is not the curator token. Check it and try again.');
      expect(cookiesOf(wrong).some((c) => c.startsWith('registry_curator='))).toBe(false);

      const right = await postSignIn(form, CURATOR_TOKEN);
      expect(right.status).toBe(303);
      expect(right.headers.location).toBe('/curation');
      const cookie = cookiesOf(right).find((c) => c.startsWith('registry_curator='))!;
      expect(cookie).toMatch(/^registry_curator=[A-Za-z0-9_-]{43}; path=\/curation; expires=[^;]+; samesite=strict; httponly$/);
      const expires = new Date(/expires=([^;]+)/.exec(cookie)![1]!);
      expect(expires.getTime() - Date.now()).toBeGreaterThan(7.9 * 3600_000);
      expect(expires.getTime() - Date.now()).toBeLessThan(8.1 * 3600_000);
      // Only the hash of the cookie's value is stored.
      const value = cookie.split(';')[0]!.split('=')[1]!;
      expect(await t.db('curatorSessions').where({ idHash: value })).toHaveLength(0);
      const rows = await t.db('curatorSessions').where({ curatorName: CURATOR_NAME, curatorKind: 'token' });
      expect(rows.length).toBeGreaterThan(0);

      const page = await request(app).get('/curation').set('Accept', HTML).set('Cookie', cookie.split(';')[0]!);
      expect(page.status).toBe(200);
      expect(page.text).toContain(`Signed in as <strong>${CURATOR_NAME}</strong>`);
    });

    it('marks the cookie Secure when the desk is served over https (behind a proxy that says so)', async () => {
      const behindProxy = t.registryApp({ registration: regexpChecks, env: { TRUST_PROXY: 'true' } }).callback();
      const https = { 'X-Forwarded-Proto': 'https' };
      const page = await request(behindProxy).get('/curation/sign-in').set('Accept', HTML).set(https);
      const form = { cookie: cookiesOf(page).find((c) => c.startsWith('registry_csrf='))!.split(';')[0]!, csrf: csrfOf(page.text) };
      expect(cookiesOf(page)[0]).toContain('; secure');
      const res = await postSignIn(form, CURATOR_TOKEN, behindProxy, { ...https, Origin: 'https://registry.test' });
      expect(res.status).toBe(303);
      expect(cookiesOf(res).find((c) => c.startsWith('registry_curator='))).toMatch(/; path=\/curation; expires=[^;]+; samesite=strict; secure; httponly$/);
    });

    it('refuses a sign-in form without the page’s CSRF token or from another site', async () => {
      const form = await openSignIn();
      const noToken = await request(app).post('/curation/sign-in').set('Accept', HTML).set('Cookie', form.cookie).type('form').send({ token: CURATOR_TOKEN });
      expect(noToken.status).toBe(403);
      expect(noToken.text).toContain('The form had expired, or was not sent from the curator desk');
      const foreign = await postSignIn(form, CURATOR_TOKEN, app, { Origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      expect(cookiesOf(foreign).some((c) => c.startsWith('registry_curator='))).toBe(false);
    });

    it('answers 429 with Retry-After after ten wrong tokens from one address, and still lets the right one in', async () => {
      // An address of its own (X-Forwarded-For, trusted here), so that the other tests' wrong tokens do not count.
      const own = t.registryApp({ registration: regexpChecks, env: { TRUST_PROXY: 'true' } }).callback();
      const from = { 'X-Forwarded-For': '192.0.2.21' };
      const form = await openSignIn(own);
      for (let i = 0; i < 10; i++) expect((await postSignIn(form, `wrong-${i}`, own, from)).status).toBe(401);
      const refused = await postSignIn(form, `wrong-10`, own, from);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.text).toContain('Too many wrong curator tokens were sent from your address. Try again in 1 second.');
      expect((await postSignIn(form, CURATOR_TOKEN, own, from)).status).toBe(303);
    });

    it('signs out: the session ends on the server and the cookie is cleared', async () => {
      const desk = await signIn();
      const before = await t.db('curatorSessions').count({ n: '*' }).first();
      const res = await postDesk(desk, '/curation/sign-out', {});
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/curation/sign-in?signedOut=1');
      expect(cookiesOf(res).find((c) => c.startsWith('registry_curator='))).toMatch(/^registry_curator=; path=\/curation; expires=Thu, 01 Jan 1970/);
      const after = await t.db('curatorSessions').count({ n: '*' }).first();
      expect(Number(after!.n)).toBe(Number(before!.n) - 1);
      const again = await getPage(desk, '/curation');
      expect(again.status).toBe(303);
      const notice = await request(app).get('/curation/sign-in?signedOut=1').set('Accept', HTML);
      expect(notice.text).toContain('You have signed out.');
    });

    it('ends an expired session: a page goes to the sign-in saying so, a form is refused with 401', async () => {
      const desk = await signIn();
      await t.db('curatorSessions').update({ expiresAt: new Date(Date.now() - 1000) });
      const form = await postDesk(desk, '/curation/sign-out', {});
      expect(form.status).toBe(303); // signing out of an ended session needs nothing
      const desk2 = await signIn();
      await t.db('curatorSessions').update({ expiresAt: new Date(Date.now() - 1000) });
      const posted = await postDesk(desk2, '/curation/requests/prefix/1/comment', { text: 'late' });
      expect(posted.status).toBe(401);
      expect(posted.text).toContain('Your session has ended');
      const page = await getPage(desk2, '/curation');
      // The expired row went with the form above: now it names no session at all.
      expect(page.status).toBe(303);
      const desk3 = await signIn();
      await t.db('curatorSessions').update({ expiresAt: new Date(Date.now() - 1000) });
      const expired = await getPage(desk3, '/curation');
      expect(expired.status).toBe(303);
      expect(expired.headers.location).toBe('/curation/sign-in?next=%2Fcuration&expired=1');
      const notice = await request(app).get(expired.headers.location!).set('Accept', HTML);
      expect(notice.text).toContain('Your session has expired. Sign in again.');
    });

    it('answers 404 when curation is off', async () => {
      const off = t.registryApp({ registration: regexpChecks, env: { CURATOR_TOKEN: '' } }).callback();
      const res = await request(off).get('/curation/sign-in').set('Accept', HTML);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Curation is not enabled on this registry');
    });
  });

  describe('requests', () => {
    let desk: Desk;

    beforeAll(async () => {
      desk = await signIn();
    });

    it('lists the open requests with their age, last event and validation', async () => {
      const prefix = unique('dl');
      await submit('prefix', prefixRegistration(prefix));
      const code = unique('dr');
      await submit('resource', resourceRegistration(code));
      const res = await getPage(desk, '/curation');
      expect(res.status).toBe(200);
      expect(res.text).toContain('<h2 id="open-prefix">Prefix requests');
      expect(res.text).toContain('<h2 id="open-resource">Provider requests');
      const row = new RegExp(`<tr><td><a href="/curation/requests/prefix/\\d+"><code>${prefix}</code></a></td><td>Example records ${prefix}</td><td>Ann Example</td><td>0 minutes<br/><span class="muted">sent <time[^>]*>[^<]*</time></span></td><td>Sent</td><td class="verdict-ok">Passes every check</td></tr>`);
      expect(res.text).toMatch(row);
      expect(res.text).toContain(`Mirror ${code}`);
    });

    it('lists at most 20 open requests of a kind per page, oldest first, with links to the next and previous pages', async () => {
      const open = async () => Number(((await t.db('prefixRegistrationSessions').where({ closed: false }).count({ n: '*' }).first()) as { n: string }).n);
      for (let missing = 45 - (await open()); missing > 0; missing--) await submit('prefix', prefixRegistration(unique('dp')));
      const total = await open();
      const pages = Math.ceil(total / 20);
      const rowsOf = (html: string) => [...html.matchAll(/<tr><td><a href="\/curation\/requests\/prefix\/(\d+)">/g)].map((match) => Number(match[1]));
      const oldestFirst = ((await t.db('prefixRegistrationSessions').where({ closed: false }).orderBy('created').orderBy('id').pluck('id')) as number[]);

      const first = await getPage(desk, '/curation');
      expect(first.text).toContain(`<h2 id="open-prefix">Prefix requests <span class="muted">(${total})</span></h2>`);
      expect(rowsOf(first.text)).toEqual(oldestFirst.slice(0, 20));
      expect(first.text).toContain(`<p>Page 1 of ${pages}</p>`);
      expect(first.text).toContain('<a href="/curation?prefixPage=1" rel="next">Next page</a>');
      expect(first.text).not.toContain('rel="prev"');

      const second = await getPage(desk, '/curation?prefixPage=1');
      expect(rowsOf(second.text)).toEqual(oldestFirst.slice(20, 40));
      expect(second.text).toContain('<a href="/curation" rel="prev">Previous page</a>');
      expect(second.text).toContain('<a href="/curation?prefixPage=2" rel="next">Next page</a>');

      // Past the last page: the last; not a page number: the first.
      const last = await getPage(desk, '/curation?prefixPage=999999');
      expect(rowsOf(last.text)).toEqual(oldestFirst.slice((pages - 1) * 20));
      expect(last.text).not.toContain('rel="next"');
      expect(rowsOf((await getPage(desk, '/curation?prefixPage=x')).text)).toEqual(oldestFirst.slice(0, 20));
    });

    it('shows one request: its fields, URL checks, history and the action forms, each with the session’s CSRF token', async () => {
      const prefix = unique('ds');
      const id = await submit('prefix', prefixRegistration(prefix));
      const res = await getPage(desk, `/curation/requests/prefix/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.text).toContain(`<h1>Prefix request “${prefix}”</h1>`);
      expect(res.text).toContain('ann@example.org');
      expect(res.text).toContain(`<code>https://${prefix}.example.org/items/12345</code></a></td><td class="verdict-ok">Works</td>`);
      expect(res.text).toContain(`<code>https://${prefix}.example.org/</code>`);
      for (const action of ['comment', 'accept', 'reject', 'amend']) expect(res.text).toContain(`action="/curation/requests/prefix/${id}/${action}"`);
      const forms = res.text.match(/<form /g)!.length;
      const tokens = res.text.match(new RegExp(`name="csrf" value="${desk.csrf}"`, 'g'))!.length;
      expect(tokens).toBe(forms);
      expect((await getPage(desk, '/curation/requests/prefix/999999999')).status).toBe(404);
      expect((await getPage(desk, '/curation/requests/other/1')).status).toBe(404);
    });

    it('shows where the request\'s institution differs from the registry\'s, which accepting leaves as it is', async () => {
      const jax = (await t.db('institutions').where({ name: 'The Jackson Laboratory' }).first())!;
      const harvard = (await t.db('institutions').where({ name: 'Harvard Medical School' }).first())!;
      const otherRor = await submit('prefix', prefixRegistration(unique('di'), { institutionName: 'the jackson laboratory', institutionRorId: '0zzzzzz99' }));
      const noRor = await submit('prefix', prefixRegistration(unique('di'), { institutionName: 'Harvard Medical School', institutionRorId: 'https://ror.org/03vek6s52' }));
      const rorOfAnother = await submit('prefix', prefixRegistration(unique('di'), { institutionName: 'Some Other Institute', institutionRorId: '02catss52' }));
      const same = await submit('prefix', prefixRegistration(unique('di'), { institutionName: 'The Jackson Laboratory', institutionRorId: jax.rorId }));

      const page = async (id: number) => (await getPage(desk, `/curation/requests/prefix/${id}`)).text;
      const heading = '<h2 id="institution-difference-heading">Institution differs from the registry’s</h2>';
      const first = await page(otherRor);
      expect(first).toContain(heading);
      expect(first).toContain(
        `The request gives the ROR id <code>https://ror.org/0zzzzzz99</code> for “the jackson laboratory”; the registry’s institution <a href="/curation/institutions/${jax.id}">The Jackson Laboratory</a> has the ROR id <code>${jax.rorId}</code>.`,
      );
      expect(first).toContain('Accepting the request uses the registry’s institution as it is.');
      expect(await page(noRor)).toContain(`<a href="/curation/institutions/${harvard.id}">Harvard Medical School</a> has no ROR id.`);
      expect(await page(rorOfAnother)).toMatch(/The request’s ROR id <code>https:\/\/ror.org\/02catss52<\/code> is that of the registry’s institution <a href="\/curation\/institutions\/\d+">European Bioinformatics Institute<\/a>, not of “Some Other Institute”/);
      expect(await page(same)).not.toContain(heading);

      expect((await postDesk(desk, `/curation/requests/prefix/${otherRor}/accept`, { text: '' })).status).toBe(303);
      expect((await t.db('institutions').where({ id: jax.id }).first())!.rorId).toBe(jax.rorId);
      expect(await page(otherRor)).not.toContain(heading);
    });

    it('shows a request that fails a check with the failure', async () => {
      const prefix = unique('dv');
      const id = await submit('prefix', prefixRegistration(prefix));
      // The registry changed since: the sample no longer matches the namespace pattern.
      await t.db('prefixRegistrationRequests').where({ requestedPrefix: prefix }).update({ idRegexPattern: '^[a-z]+$' });
      const res = await getPage(desk, `/curation/requests/prefix/${id}`);
      expect(res.text).toContain('<p class="verdict-bad"><strong>');
      expect(res.text).toMatch(/<li><strong>Identifier pattern:<\/strong> [^<]+<\/li>|<li><strong>Sample identifier:<\/strong> [^<]+<\/li>/);
    });

    it('comments as the signed-in curator, and refuses an empty comment next to its field', async () => {
      const id = await submit('prefix', prefixRegistration(unique('dc')));
      const empty = await postDesk(desk, `/curation/requests/prefix/${id}/comment`, { text: '  ' });
      expect(empty.status).toBe(422);
      expect(empty.text).toContain('<a href="#comment-text">Write the comment to the requester</a>');
      expect(empty.text).toMatch(/<p class="field-message problem" id="comment-text-msg" aria-live="polite">Write the comment to the requester<\/p>/);

      const res = await postDesk(desk, `/curation/requests/prefix/${id}/comment`, { text: 'Which licence?' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`/curation/requests/prefix/${id}?done=comment`);
      const events = await eventsOf('prefix', id);
      expect(events.map((e) => [e.eventName, e.actor, e.comment])).toEqual([
        ['START', 'ANONYMOUS', null],
        ['COMMENT', CURATOR_NAME, 'Which licence?'],
      ]);
      const page = await getPage(desk, res.headers.location!);
      expect(page.text).toContain('Your comment was sent to the requester.');
      expect(page.text).toContain(`<strong>Comment by ${CURATOR_NAME}</strong>`);
    });

    it('refuses a desk form without the session’s CSRF token, or from another origin, and does nothing', async () => {
      const id = await submit('prefix', prefixRegistration(unique('dx')));
      const wrong = await postDesk(desk, `/curation/requests/prefix/${id}/comment`, { text: 'forged', csrf: 'x'.repeat(43) });
      expect(wrong.status).toBe(403);
      expect(wrong.text).toContain('The form had expired, or was not sent from the curator desk');
      const foreign = await postDesk(desk, `/curation/requests/prefix/${id}/accept`, { text: '' }, { Origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      const missing = await request(app).post(`/curation/requests/prefix/${id}/reject`).set('Cookie', desk.cookie).type('form').send({ text: 'no token' });
      expect(missing.status).toBe(403);
      expect((await eventsOf('prefix', id)).map((e) => e.eventName)).toEqual(['START']);
    });

    it('amends a request: a field that fails gets its message next to it, a valid amendment replaces the request', async () => {
      const prefix = unique('da');
      const id = await submit('prefix', prefixRegistration(prefix));
      const page = await getPage(desk, `/curation/requests/prefix/${id}`);
      const fields: Record<string, string> = {};
      for (const match of page.text.matchAll(/<input type="(?:text|url)" [^>]*?value="([^"]*)"[^>]*?id="amend-([A-Za-z]+)"/g)) fields[match[2]!] = match[1]!;
      // Inputs write `value` after `id` in preact's order; read them either way round.
      for (const match of page.text.matchAll(/<input type="(?:text|url)" id="amend-([A-Za-z]+)"[^>]*?value="([^"]*)"/g)) fields[match[1]!] = match[2]!;
      for (const match of page.text.matchAll(/<textarea rows="4" id="amend-([A-Za-z]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[match[1]!] = match[2]!.replace(/&amp;/g, '&');
      expect(fields.requestedPrefix).toBe(prefix);
      expect(fields.requesterEmail).toBe('ann@example.org');

      const bad = await postDesk(desk, `/curation/requests/prefix/${id}/amend`, { ...fields, description: 'Too short', note: 'shorter' });
      expect(bad.status).toBe(422);
      expect(bad.text).toMatch(/id="amend-description-msg" aria-live="polite">Description needs more than 50 characters<\/p>/);
      expect(bad.text).toContain('<a href="#amend-description">Description needs more than 50 characters</a>');
      expect(bad.text).toContain('<details open>');

      const good = await postDesk(desk, `/curation/requests/prefix/${id}/amend`, { ...fields, name: `Amended ${prefix}`, note: 'Better name' });
      expect(good.status).toBe(303);
      const events = await eventsOf('prefix', id);
      expect(events.map((e) => [e.eventName, e.actor, e.additionalInformation])).toEqual([
        ['START', 'ANONYMOUS', expect.any(String)],
        ['AMEND', CURATOR_NAME, 'Better name'],
      ]);
      const session = await t.db('prefixRegistrationSessions').where({ id }).first();
      const current = await t.db('prefixRegistrationRequests').where({ id: session.requestId }).first();
      expect(current.name).toBe(`Amended ${prefix}`);
      expect(current.supportingReferences).toEqual(['https://doi.org/10.1000/182']);
    });

    it('rejects with the reason, as the curator', async () => {
      const id = await submit('resource', resourceRegistration(unique('dj')));
      const empty = await postDesk(desk, `/curation/requests/resource/${id}/reject`, { text: '' });
      expect(empty.status).toBe(422);
      const res = await postDesk(desk, `/curation/requests/resource/${id}/reject`, { text: 'A mirror of a mirror' });
      expect(res.status).toBe(303);
      const events = await eventsOf('resource', id);
      expect(events.at(-1)).toMatchObject({ eventName: 'REJECT', actor: CURATOR_NAME, rejectionReason: 'A mirror of a mirror' });
      const page = await getPage(desk, res.headers.location!);
      expect(page.text).toContain('<strong class="state-rejected">Rejected</strong>');
      expect(page.text).not.toContain('/reject"');
    });

    it('accepts: the namespace is created, the page links it, and a second acceptance is refused with the reason', async () => {
      const prefix = unique('dk');
      const id = await submit('prefix', prefixRegistration(prefix));
      const res = await postDesk(desk, `/curation/requests/prefix/${id}/accept`, { text: 'Looks good' });
      expect(res.status).toBe(303);
      expect(await t.db('namespaces').where({ prefix }).first())!.toBeDefined();
      expect((await eventsOf('prefix', id)).at(-1)).toMatchObject({ eventName: 'ACCEPT', actor: CURATOR_NAME, acceptanceReason: 'Looks good' });
      const page = await getPage(desk, res.headers.location!);
      expect(page.text).toContain('The request was accepted: the registry has it now.');
      expect(page.text).toContain(`<a href="/registry/${prefix}">See the namespace page of ${prefix}</a>`);
      const again = await postDesk(desk, `/curation/requests/prefix/${id}/accept`, { text: '' });
      expect(again.status).toBe(409);
      expect(again.text).toContain('NO acceptance requests ACCEPTED on ALREADY CLOSED Prefix Registration Session');
      expect((await request(app).get(`/registry/${prefix}`).set('Accept', HTML)).status).toBe(200);
    });

    it('keeps the JSON APIs on the bearer token: the desk cookie authorises nothing there', async () => {
      const id = await submit('prefix', prefixRegistration(unique('dn')));
      const withCookie = await request(app)
        .post(`/prefixRegistrationApi/commentPrefixRegistrationRequest/${id}`)
        .set('Cookie', desk.cookie)
        .send({ apiVersion: '1.0', payload: { comment: 'by cookie' } });
      expect(withCookie.status).toBe(401);
      const withToken = await request(app)
        .post(`/prefixRegistrationApi/commentPrefixRegistrationRequest/${id}`)
        .set('Authorization', `Bearer ${CURATOR_TOKEN}`)
        .send({ apiVersion: '1.0', payload: { comment: 'by token' } });
      expect(withToken.status).toBe(200);
    });
  });

  describe('registry maintenance', () => {
    let desk: Desk;
    let prefix: string;
    let namespaceId: number;

    beforeAll(async () => {
      desk = await signIn();
      prefix = unique('dm');
      const id = await submit('prefix', prefixRegistration(prefix));
      expect((await postDesk(desk, `/curation/requests/prefix/${id}/accept`, { text: '' })).status).toBe(303);
      namespaceId = (await t.db('namespaces').where({ prefix }).first())!.id;
    });

    /** The edit form's fields as the page shows them, and its `modified`. */
    async function editForm(path: string): Promise<Record<string, string>> {
      const page = await getPage(desk, path);
      expect(page.status).toBe(200);
      const fields: Record<string, string> = {};
      const form = /<form method="post" action="[^"]*\/edit"[\s\S]*?<\/form>/.exec(page.text)![0];
      for (const match of form.matchAll(/<input type="(?:text|url|hidden)" [^>]*>/g)) {
        const name = /name="([^"]+)"/.exec(match[0])?.[1];
        const value = /value="([^"]*)"/.exec(match[0])?.[1];
        if (name && value !== undefined) fields[name] = value.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
      }
      for (const match of form.matchAll(/<textarea rows="4" id="edit-[A-Za-z]+" name="([A-Za-z]+)"[^>]*>([^<]*)<\/textarea>/g)) fields[match[1]!] = match[2]!;
      for (const match of form.matchAll(/<input type="checkbox" [^>]*name="([A-Za-z]+)"[^>]*checked[^>]*>/g)) fields[match[1]!] = 'on';
      return fields;
    }

    it('finds a namespace to maintain', async () => {
      const res = await getPage(desk, `/curation/registry?q=${prefix}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<a href="/curation/namespaces/${prefix}"><code>${prefix}</code></a>`);
    });

    it('edits a namespace, logged with the curator; a field that fails gets its message next to it', async () => {
      const path = `/curation/namespaces/${prefix}`;
      const fields = await editForm(path);
      expect(fields.name).toBe(`Example records ${prefix}`);
      expect(fields.pattern).toBe('^\\d+$');
      const bad = await postDesk(desk, `/curation/namespaces/${namespaceId}/edit`, { ...fields, sampleId: 'abc' });
      expect(bad.status).toBe(422);
      expect(bad.text).toMatch(/id="edit-sampleId-msg" aria-live="polite">[^<]+<\/p>/);
      expect(bad.text).toContain('<a href="#edit-sampleId">');
      expect(bad.text).toContain('value="abc"');

      const res = await postDesk(desk, `/curation/namespaces/${namespaceId}/edit`, { ...fields, name: `Renamed ${prefix}` });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`${path}?done=edit`);
      expect((await t.db('namespaces').where({ id: namespaceId }).first())!.name).toBe(`Renamed ${prefix}`);
      const logged = await t.db('curationEvents').where({ entity: 'namespace', entityId: namespaceId }).orderBy('id', 'desc').first();
      expect(logged).toMatchObject({ action: 'namespace.update', actor: CURATOR_NAME, actorKind: 'token', actorIssuer: null });
      expect(logged.changes).toEqual({ name: { from: `Example records ${prefix}`, to: `Renamed ${prefix}` } });
      const page = await getPage(desk, res.headers.location!);
      expect(page.text).toContain('Saved. The resolver serves the change within moments.');
      expect(page.text).toContain(`<strong>namespace.update: name</strong> by ${CURATOR_NAME}`);

      // The form read before the change is stale now.
      const stale = await postDesk(desk, `/curation/namespaces/${namespaceId}/edit`, { ...fields, name: 'Over the other edit' });
      expect(stale.status).toBe(409);
      expect(stale.text).toContain('The record was changed by someone else meanwhile');
    });

    it('refuses a synonym a prefix map cannot publish, saying which character, next to the synonyms field', async () => {
      const fields = await editForm(`/curation/namespaces/${prefix}`);
      const bad = await postDesk(desk, `/curation/namespaces/${namespaceId}/edit`, { ...fields, synonyms: `${prefix}_alias\n${prefix}|pipe` });
      expect(bad.status).toBe(422);
      expect(bad.text).toMatch(/id="edit-synonyms-msg" aria-live="polite">Synonym '[a-z0-9_]+\|pipe' holds '\|': a synonym is made of letters, digits, dots, underscores and hyphens[^<]*<\/p>/);
      expect(await t.db('namespaceSynonyms').where({ namespaceId })).toEqual([]);
    });

    it('sets and clears a successor, deactivates and reactivates the namespace', async () => {
      const modified = async () => (await t.db('namespaces').where({ id: namespaceId }).first())!.modified.toISOString();
      const unknown = await postDesk(desk, `/curation/namespaces/${namespaceId}/successor`, { successor: 'no-such-prefix', modified: await modified() });
      expect(unknown.status).toBe(422);
      expect(unknown.text).toMatch(/id="successor-successor-msg" aria-live="polite">No namespace has the prefix &#39;no-such-prefix&#39;<\/p>|id="successor-successor-msg" aria-live="polite">No namespace has the prefix 'no-such-prefix'<\/p>/);
      const set = await postDesk(desk, `/curation/namespaces/${namespaceId}/successor`, { successor: 'taxonomy', modified: await modified() });
      expect(set.status).toBe(303);
      const taxonomy = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first())!.id;
      expect((await t.db('namespaces').where({ id: namespaceId }).first())!.successorId).toBe(taxonomy);
      const cleared = await postDesk(desk, `/curation/namespaces/${namespaceId}/successor`, { successor: '', modified: await modified() });
      expect(cleared.status).toBe(303);
      expect((await t.db('namespaces').where({ id: namespaceId }).first())!.successorId).toBeNull();

      const off = await postDesk(desk, `/curation/namespaces/${namespaceId}/deactivate`, {});
      expect(off.status).toBe(303);
      expect((await t.db('namespaces').where({ id: namespaceId }).first())!.deprecated).toBe(true);
      const twice = await postDesk(desk, `/curation/namespaces/${namespaceId}/deactivate`, {});
      expect(twice.status).toBe(422);
      expect(twice.text).toContain('CANNOT BE DEACTIVATED, because IT ALREADY IS DEPRECATED');
      const on = await postDesk(desk, `/curation/namespaces/${namespaceId}/reactivate`, {});
      expect(on.status).toBe(303);
      expect((await t.db('namespaces').where({ id: namespaceId }).first())!.deprecated).toBe(false);
      const actions = await t.db('curationEvents').where({ entity: 'namespace', entityId: namespaceId }).orderBy('id').pluck('action');
      expect(actions).toEqual(expect.arrayContaining(['namespace.successor', 'namespace.deactivate', 'namespace.reactivate']));
      expect(await t.db('curationEvents').where({ entity: 'namespace', entityId: namespaceId }).whereNot({ actor: CURATOR_NAME })).toEqual([]);
    });

    it('edits a provider (a bad URL pattern is refused next to its field), deactivates and reactivates it', async () => {
      const resource = (await t.db('resources').where({ namespaceId }).first())!;
      const path = `/curation/resources/${resource.id}`;
      const fields = await editForm(path);
      expect(fields.location).toBe('GB');
      const bad = await postDesk(desk, `${path}/edit`, { ...fields, urlPattern: 'https://example.org/no-id-here' });
      expect(bad.status).toBe(422);
      expect(bad.text).toMatch(/id="edit-urlPattern-msg" aria-live="polite">[^<]+<\/p>/);
      const noCountry = await postDesk(desk, `${path}/edit`, { ...fields, location: '' });
      expect(noCountry.status).toBe(422);
      expect(noCountry.text).toContain('id="edit-location-msg" aria-live="polite">Country is required</p>');
      const res = await postDesk(desk, `${path}/edit`, { ...fields, name: 'Renamed provider', location: 'fr' });
      expect(res.status).toBe(303);
      expect(await t.db('resources').where({ id: resource.id }).first())!.toMatchObject({ name: 'Renamed provider', locationCountryCode: 'FR' });

      expect((await postDesk(desk, `${path}/deactivate`, {})).status).toBe(303);
      expect((await t.db('resources').where({ id: resource.id }).first())!.deprecated).toBe(true);
      const badPattern = await postDesk(desk, `${path}/reactivate`, { urlPattern: 'not a url' });
      expect(badPattern.status).toBe(422);
      expect(badPattern.text).toMatch(/id="lifecycle-urlPattern-msg" aria-live="polite">[^<]+<\/p>/);
      expect((await postDesk(desk, `${path}/reactivate`, { urlPattern: '' })).status).toBe(303);
      expect((await t.db('resources').where({ id: resource.id }).first())!.deprecated).toBe(false);
      const logged = await t.db('curationEvents').where({ entity: 'resource', entityId: resource.id }).pluck('actor');
      expect(new Set(logged)).toEqual(new Set([CURATOR_NAME]));
    });

    it('edits an institution', async () => {
      const resource = (await t.db('resources').where({ namespaceId }).first())!;
      const path = `/curation/institutions/${resource.institutionId}`;
      const fields = await editForm(path);
      const badRor = await postDesk(desk, `${path}/edit`, { ...fields, rorId: 'not-a-ror-id' });
      expect(badRor.status).toBe(422);
      // In the form's plain words, not the API's ("Institution ROR ID ...").
      expect(badRor.text).toContain('id="edit-rorId-msg" aria-live="polite">“not-a-ror-id” is not a ROR id; a ROR id is written like https://ror.org/02catss52 or 02catss52</p>');
      const res = await postDesk(desk, `${path}/edit`, { ...fields, description: `${fields.description} Now longer still.` });
      expect(res.status).toBe(303);
      const logged = await t.db('curationEvents').where({ entity: 'institution', entityId: resource.institutionId }).orderBy('id', 'desc').first();
      expect(logged).toMatchObject({ action: 'institution.update', actor: CURATOR_NAME });
    });

    it('answers 404 for a record the registry does not have', async () => {
      expect((await getPage(desk, '/curation/namespaces/no-such-prefix')).status).toBe(404);
      expect((await getPage(desk, '/curation/resources/999999999')).status).toBe(404);
      expect((await postDesk(desk, '/curation/institutions/999999999/edit', { name: 'x', modified: new Date().toISOString() })).status).toBe(404);
    });
  });
});
