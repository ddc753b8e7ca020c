/**
 * The request forms and the requester's status page without JavaScript: what a browser's plain form POST
 * (application/x-www-form-urlencoded) gets. A refused form comes back with each validator's message next
 * to its field and the typed values kept; a valid one is stored by the JSON API's SubmissionService and
 * answered 303 to the status page; the status page shows the state, the history and the curators'
 * comments, and records the requester's answer. Also the forms' forgery checks and body guards.
 */
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { prefixRegistration, resourceRegistration, unique } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CURATOR_TOKEN = randomBytes(24).toString('hex');

/** A registration payload as the form posts it: flat fields, references one per line, ticked boxes 'on'. */
function asFormFields(payload: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (name === 'requester') {
      const requester = value as { name: string; email: string };
      fields.requesterName = requester.name;
      fields.requesterEmail = requester.email;
    } else if (Array.isArray(value)) fields[name] = value.join('\n');
    else if (typeof value === 'boolean') {
      if (value) fields[name] = 'on';
    } else if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

interface OpenForm {
  cookie: string;
  csrf: string;
  html: string;
}

/** Escapes a text as preact writes it into an attribute. */
const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

describe('registration pages without JavaScript', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;

  beforeAll(async () => {
    t = await startRegistry('regpages', { registration: regexpChecks, env: { CURATOR_TOKEN } });
    app = t.app;
  });

  afterAll(async () => {
    await t.close();
  });

  async function openPage(path: string, cookie?: string): Promise<OpenForm> {
    const get = request(app).get(path).set('Accept', HTML);
    if (cookie) void get.set('Cookie', cookie);
    const res = await get;
    expect(res.status).toBe(200);
    const set = (res.headers['set-cookie'] as unknown as string[] | undefined)?.[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(res.text)?.[1];
    expect(csrf).toBeDefined();
    return { cookie: cookie ?? set!.split(';')[0]!, csrf: csrf!, html: res.text };
  }

  function postForm(path: string, fields: Record<string, string>, form: OpenForm, headers: Record<string, string> = {}) {
    return request(app)
      .post(path)
      .set('Accept', HTML)
      .set('Cookie', form.cookie)
      .set(headers)
      .type('form')
      .send({ ...fields, csrf: form.csrf });
  }

  async function sendPrefixRequest(prefix = unique('pg')): Promise<{ token: string; prefix: string }> {
    const form = await openPage('/prefixregistrationrequest');
    const res = await postForm('/prefixregistrationrequest', asFormFields(prefixRegistration(prefix)), form);
    expect(res.status).toBe(303);
    const token = /^\/requests\/([A-Za-z0-9_-]+)\?sent=1$/.exec(res.headers.location ?? '')?.[1];
    expect(token).toBeDefined();
    return { token: token!, prefix };
  }

  const curatorComment = async (token: string, comment: string) => {
    const session = await t.db('prefixRegistrationSessions').where({ token }).first();
    const res = await request(app)
      .post(`/prefixRegistrationApi/commentPrefixRegistrationRequest/${session.id}`)
      .set('Authorization', `Bearer ${CURATOR_TOKEN}`)
      .send({ apiVersion: '1.0', payload: { comment } });
    expect(res.status).toBe(200);
    return session.id as number;
  };

  describe('the prefix request form', () => {
    it('has a labelled field for every field of the registration payload, each with its message element and validator', async () => {
      const res = await request(app).get('/prefixregistrationrequest').set('Accept', HTML);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
      expect(cookie).toMatch(/^registry_csrf=[A-Za-z0-9_-]{43}; path=\/; samesite=strict; httponly$/);
      for (const name of [
        'name', 'description', 'requestedPrefix', 'sampleId', 'idRegexPattern', 'namespaceEmbeddedInLui', 'references',
        'providerName', 'providerDescription', 'providerHomeUrl', 'providerUrlPattern', 'providerCode', 'providerLocation',
        'institutionRorId', 'institutionName', 'institutionDescription', 'institutionHomeUrl', 'institutionLocation',
        'protectedUrls', 'renderProtectedLanding', 'authHelpUrl', 'authHelpDescription', 'additionalInformation',
        'requesterName', 'requesterEmail',
      ]) {
        expect(res.text).toContain(`name="${name}"`);
        expect(res.text).toContain(`<label for="f-${name}"`);
      }
      expect(res.text).toContain('<p class="field-message" id="f-description-msg" aria-live="polite">');
      expect(res.text).toMatch(/id="f-description"[^>]*aria-describedby="f-description-hint f-description-msg"[^>]*data-validate="validateDescription"/);
      expect(res.text).toMatch(/id="f-sampleId"[^>]*data-validate="validateSampleId" data-with="providerUrlPattern"/);
      expect(res.text).toContain('More than 50 characters.');
      expect(res.text).toMatch(/<script type="module" src="\/static\/registration-form\.js\?v=/);
    });

    it('re-renders a refused request with each message next to its field and every typed value kept (422)', async () => {
      const form = await openPage('/prefixregistrationrequest');
      const prefix = unique('pg');
      const fields = asFormFields(prefixRegistration(prefix, { description: 'Too short', providerLocation: 'XX', name: 'Rosalind <"&> records' }));
      const res = await postForm('/prefixregistrationrequest', fields, form);

      expect(res.status).toBe(422);
      expect(res.text).toContain('<title>Error: Request a prefix');
      expect(res.text).toContain('There is a problem');
      // In plain words under the form's labels, not the API's ("Description MUST be longer…", "Provider Location").
      expect(res.text).toMatch(/id="f-description-msg" aria-live="polite">Description needs more than 50 characters<\/p>/);
      expect(res.text).toMatch(/id="f-providerLocation-msg" aria-live="polite">Provider country: enter the two-letter ISO 3166 code of a country, such as GB<\/p>/);
      expect(res.text).toContain('<a href="#f-description">Description needs more than 50 characters</a>');
      expect(res.text).toMatch(/<textarea[^>]*id="f-description"[^>]*aria-invalid="true"[^>]*>Too short<\/textarea>/);
      expect(res.text).toContain(`value="${escaped('Rosalind <"&> records')}"`);
      expect(res.text).toContain(`value="${prefix}"`);
      expect(res.text).toContain('https://doi.org/10.1000/182</textarea>');
      // The same form token, so the corrected form can be sent again.
      expect(res.text).toContain(`value="${form.csrf}"`);
      expect(await t.db('prefixRegistrationRequests').where({ requestedPrefix: prefix }).first()).toBeUndefined();
    });

    it('stores a valid request as the JSON API does and answers 303 to its status page', async () => {
      const prefix = unique('pg');
      const { token } = await sendPrefixRequest(prefix);
      const session = await t.db('prefixRegistrationSessions').where({ token }).first();
      const stored = await t.db('prefixRegistrationRequests').where({ id: session.requestId }).first();
      expect(stored).toMatchObject({
        requestedPrefix: prefix,
        providerLocation: 'GB',
        institutionLocation: 'GB',
        requesterEmail: 'ann@example.org',
        supportingReferences: ['https://doi.org/10.1000/182'],
        namespaceEmbeddedInLui: false,
        additionalInformation: 'nothing else',
      });
      const events = await t.db('prefixRegistrationSessionEvents').where({ sessionId: session.id });
      expect(events.map((e: { eventName: string; actor: string }) => [e.eventName, e.actor])).toEqual([['START', 'ANONYMOUS']]);
    });

    it('refuses a form without the token of its cookie, or from another origin, and stores nothing (403)', async () => {
      const form = await openPage('/prefixregistrationrequest');
      const prefix = unique('pg');
      const fields = asFormFields(prefixRegistration(prefix));

      const forged = await request(app).post('/prefixregistrationrequest').set('Accept', HTML).type('form').send(fields);
      expect(forged.status).toBe(403);
      expect(forged.text).toContain('The form had expired');
      expect(forged.text).toContain(`value="${prefix}"`);

      const otherToken = await postForm('/prefixregistrationrequest', fields, { ...form, csrf: 'x'.repeat(43) });
      expect(otherToken.status).toBe(403);

      const crossSite = await postForm('/prefixregistrationrequest', fields, form, { Origin: 'https://attacker.example' });
      expect(crossSite.status).toBe(403);

      expect(await t.db('prefixRegistrationRequests').where({ requestedPrefix: prefix }).first()).toBeUndefined();
      // The registry's own origin, as a browser sends it, passes.
      const own = await postForm('/prefixregistrationrequest', fields, form, { Origin: 'https://registry.test' });
      expect(own.status).toBe(303);
    });

    it('guards the form body: not UTF-8, a NUL, another content type, too large', async () => {
      const form = await openPage('/prefixregistrationrequest');
      const send = (body: string, type = 'application/x-www-form-urlencoded') =>
        request(app).post('/prefixregistrationrequest').set('Accept', 'application/json').set('Cookie', form.cookie).set('Content-Type', type).send(body);
      const nul = await send(`csrf=${form.csrf}&name=a%00b`);
      expect({ status: nul.status, message: nul.body.errorMessage }).toEqual({ status: 400, message: 'Form field "name" must not contain the NUL character (U+0000)' });
      const latin1 = await send(`csrf=${form.csrf}&name=caf%E9`);
      expect({ status: latin1.status, message: latin1.body.errorMessage }).toEqual({ status: 400, message: 'Form field "name" is not percent-encoded UTF-8' });
      expect((await send('{"payload":{}}', 'application/json')).status).toBe(415);
      expect((await send(`csrf=${form.csrf}&name=${'a'.repeat(70 * 1024)}`)).status).toBe(413);
      // A browser gets its refusal as a page.
      const page = await request(app).post('/prefixregistrationrequest').set('Accept', HTML).set('Content-Type', 'text/plain').send('x');
      expect(page.status).toBe(415);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
    });
  });

  describe('an institution ROR id that is none (issue 21 item 3)', () => {
    const NOT_ROR = 'https://evil.example/ror/02catss52';
    const MESSAGE = `Institution ROR ID '${NOT_ROR}' is not a ROR ID (such as https://ror.org/02catss52)`;

    it('answers 400 to either JSON request in the reference\'s refusal shape, and stores nothing', async () => {
      const prefix = unique('ror');
      const prefixRes = await request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration(prefix, { institutionRorId: NOT_ROR }) });
      expect(prefixRes.status).toBe(400);
      expect(prefixRes.body).toEqual({
        apiVersion: '1.0',
        errorMessage: `INVALID Prefix registration request due to '${MESSAGE}'`,
        payload: { comment: 'No comments on your prefix registration request', token: '' },
      });
      expect(await t.db('prefixRegistrationRequests').where({ requestedPrefix: prefix }).first()).toBeUndefined();

      const code = unique('ror');
      const resourceRes = await request(app).post('/resourceManagementApi/registerResource').send({ apiVersion: '1.0', payload: resourceRegistration(code, { institutionRorId: NOT_ROR }) });
      expect(resourceRes.status).toBe(400);
      expect(resourceRes.body).toEqual({
        apiVersion: '1.0',
        errorMessage: `INVALID Resource registration request for resource name 'Mirror ${code}', due to '${MESSAGE}'`,
        payload: { comment: 'No comments on your prefix registration request', token: '' },
      });
      expect(await t.db('resourceRegistrationRequests').where({ providerCode: code }).first()).toBeUndefined();

      // A ROR id, bare or as its URL, and none at all still pass.
      for (const institutionRorId of ['02catss52', 'https://ror.org/02catss52', '', null]) {
        const ok = await request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration(unique('ror'), { institutionRorId }) });
        expect([institutionRorId, ok.status]).toEqual([institutionRorId, 200]);
      }
    });

    it('is checked by a field validator of both areas, as the form checks it while it is typed', async () => {
      for (const api of ['/prefixRegistrationApi', '/resourceManagementApi']) {
        const bad = await request(app).post(`${api}/validateInstitutionRorId`).send({ apiVersion: '1.0', payload: { institutionRorId: NOT_ROR } });
        expect([api, bad.status, bad.body.errorMessage, bad.body.payload.comment]).toEqual([api, 400, MESSAGE, 'VALIDATION FAILED']);
        const good = await request(app).post(`${api}/validateInstitutionRorId`).send({ apiVersion: '1.0', payload: { institutionRorId: 'https://ror.org/02catss52' } });
        expect([api, good.status, good.body.payload.comment]).toEqual([api, 200, 'VALIDATION OK']);
      }
      const page = await request(app).get('/prefixregistrationrequest').set('Accept', HTML);
      expect(page.text).toMatch(/id="f-institutionRorId"[^>]*data-validate="validateInstitutionRorId"/);
    });

    it('re-renders the form with the message next to the ROR id field (422)', async () => {
      const form = await openPage('/prefixregistrationrequest');
      const prefix = unique('ror');
      const res = await postForm('/prefixregistrationrequest', asFormFields(prefixRegistration(prefix, { institutionRorId: NOT_ROR })), form);
      expect(res.status).toBe(422);
      expect(res.text).toContain(`id="f-institutionRorId-msg" aria-live="polite">“${NOT_ROR}” is not a ROR id; a ROR id is written like https://ror.org/02catss52 or 02catss52</p>`);
      expect(await t.db('prefixRegistrationRequests').where({ requestedPrefix: prefix }).first()).toBeUndefined();
    });
  });

  describe('the forms’ field checks (what the form’s script asks as a field is typed)', () => {
    const check = (path: string, payload: unknown) => request(app).post(path).send({ apiVersion: '1.0', payload });

    it('answers in plain words under the form’s labels, while the JSON validators keep the reference’s messages', async () => {
      const cases: [form: string, api: string, validator: string, payload: Record<string, unknown>, apiMessage: string, pageMessage: string][] = [
        ['/prefixregistrationrequest', '/prefixRegistrationApi', 'validateDescription', { description: 'Too short' }, 'Description MUST be longer than 50 characters', 'Description needs more than 50 characters'],
        ['/prefixregistrationrequest', '/prefixRegistrationApi', 'validateIdRegexPattern', { idRegexPattern: '', sampleId: '1' }, 'ID Regex Pattern is required', 'Identifier pattern is required'],
        ['/prefixregistrationrequest', '/prefixRegistrationApi', 'validateRequesterEmail', { requester: { email: 'ann@' } }, 'ann@ is not a valid email address', 'Your e-mail address must be written like name@example.org'],
        ['/prefixregistrationrequest', '/prefixRegistrationApi', 'validateRequestedPrefix', { requestedPrefix: 'taxonomy' }, "Prefix 'taxonomy' already exists", 'The prefix “taxonomy” is taken: a namespace has it already'],
        ['/resourceregistrationrequest', '/resourceManagementApi', 'validateNamespacePrefix', { namespacePrefix: 'nosuchnamespace' }, "Prefix 'nosuchnamespace' IS NOT REGISTERED", 'No namespace has the prefix “nosuchnamespace”'],
        ['/resourceregistrationrequest', '/resourceManagementApi', 'validateProviderHomeUrl', { providerHomeUrl: 'www.example.org' }, "Provider Home URL 'www.example.org' is not a valid URL, make sure it starts with 'http://' or 'https://'", 'Provider home page must be a web address starting with http:// or https://'],
      ];
      for (const [form, api, validator, payload, apiMessage, pageMessage] of cases) {
        const json = await check(`${api}/${validator}`, payload);
        expect([validator, json.status, json.body.errorMessage]).toEqual([validator, 400, apiMessage]);
        const page = await check(`${form}/check/${validator}`, payload);
        expect([validator, page.status, page.body]).toEqual([validator, 400, { message: pageMessage }]);
        expect(page.headers['cache-control']).toBe('no-store');
      }
      const passes = await check('/prefixregistrationrequest/check/validateName', { name: 'Example records' });
      expect({ status: passes.status, body: passes.body }).toEqual({ status: 200, body: { message: null } });
      const unknown = await check('/prefixregistrationrequest/check/validateNamespacePrefix', { namespacePrefix: 'go' });
      expect(unknown.status).toBe(404);
    });

    it('is what the form’s fields are checked with', async () => {
      const res = await request(app).get('/prefixregistrationrequest').set('Accept', HTML);
      expect(res.text).toContain('data-check="/prefixregistrationrequest/check"');
    });
  });

  describe('the provider request form', () => {
    it('fills the namespace from the address, refuses an unknown one in plain words, and stores a valid one', async () => {
      const form = await openPage('/resourceregistrationrequest?namespacePrefix=ncbigene');
      expect(form.html).toMatch(/id="f-namespacePrefix"[^>]*value="ncbigene"|value="ncbigene"[^>]*id="f-namespacePrefix"/);
      expect(form.html).toMatch(/id="f-namespacePrefix"[^>]*data-suggest-prefix|data-suggest-prefix[^>]*id="f-namespacePrefix"/);
      expect(form.html).not.toContain('name="idRegexPattern"');

      const code = unique('pc');
      const refused = await postForm('/resourceregistrationrequest', asFormFields(resourceRegistration(code, { namespacePrefix: 'nosuchnamespace' })), form);
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('id="f-namespacePrefix-msg" aria-live="polite">No namespace has the prefix “nosuchnamespace”</p>');

      const sent = await postForm('/resourceregistrationrequest', asFormFields(resourceRegistration(code)), form);
      expect(sent.status).toBe(303);
      const token = /^\/requests\/([^?]+)\?sent=1$/.exec(sent.headers.location ?? '')![1]!;
      const status = await request(app).get(`/requests/${token}`).set('Accept', HTML);
      expect(status.status).toBe(200);
      expect(status.text).toContain('Request for a provider of “ncbigene”');
    });
  });

  describe('the status page', () => {
    it('shows the state and history, the e-mail address masked, and keeps its address private', async () => {
      const { token, prefix } = await sendPrefixRequest();
      const res = await request(app).get(`/requests/${token}?sent=1`).set('Accept', HTML);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['referrer-policy']).toBe('same-origin');
      expect(res.headers['x-robots-tag']).toBe('noindex');
      expect(res.text).toContain(`Request for prefix “${prefix}”`);
      expect(res.text).toContain('Your request was sent.');
      expect(res.text).toContain('Under review');
      expect(res.text).toContain('Request sent');
      expect(res.text).toContain('Ann Example (a•••@e•••.org)');
      expect(res.text).not.toContain('ann@example.org');
      expect(res.text).toContain('Answer the curators');
    });

    /** The label → value pairs of the page's "What was sent" list, as text. */
    function sentFacts(html: string): Record<string, string> {
      const list = /<h2 id="sent">What was sent<\/h2>\s*<dl class="facts">([\s\S]*?)<\/dl>/.exec(html)?.[1] ?? '';
      const text = (fragment: string) => fragment.replace(/<[^>]+>/g, '').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
      return Object.fromEntries([...list.matchAll(/<dt>([\s\S]*?)<\/dt><dd>([\s\S]*?)<\/dd>/g)].map((m) => [text(m[1]!), text(m[2]!)]));
    }

    it('repeats what was sent, under the form’s labels, so that the requester can review it', async () => {
      const { token, prefix } = await sendPrefixRequest();
      const res = await request(app).get(`/requests/${token}`).set('Accept', HTML);
      expect(sentFacts(res.text)).toEqual({
        'Requested prefix': prefix,
        Name: `Example records ${prefix}`,
        'Identifier pattern': '^\\d+$',
        'The identifiers start with the prefix (as in GO:0006915)': 'No',
        'Sample identifier': '12345',
        'Provider name': `Example provider ${prefix}`,
        'Provider code': `p${prefix}`,
        'Provider home page': `https://${prefix}.example.org/`,
        'Provider URL pattern': `https://${prefix}.example.org/items/{$id}`,
        'The sample identifier’s page': `https://${prefix}.example.org/items/12345`,
        'Provider country': 'GB (United Kingdom)',
        'Institution name': 'Example institute',
        'Institution home page': 'https://institute.example.org/',
        'Institution country': 'GB (United Kingdom)',
        Requester: 'Ann Example (a•••@e•••.org)',
      });

      const form = await openPage('/resourceregistrationrequest');
      const code = unique('pc');
      const sent = await postForm('/resourceregistrationrequest', asFormFields(resourceRegistration(code)), form);
      const resourceToken = /^\/requests\/([^?]+)\?sent=1$/.exec(sent.headers.location ?? '')![1]!;
      const resource = sentFacts((await request(app).get(`/requests/${resourceToken}`).set('Accept', HTML)).text);
      expect(resource).toMatchObject({
        'Prefix of the namespace': 'ncbigene',
        'Sample identifier': '100010',
        'Provider URL pattern': `https://${code}.example.org/genes/{$id}`,
        'The sample identifier’s page': `https://${code}.example.org/genes/100010`,
        'Provider country': 'JP (Japan)',
      });
      expect(resource).not.toHaveProperty('Identifier pattern');
    });

    it('shows the curators’ comments and records the requester’s answer as a COMMENT by the requester', async () => {
      const { token } = await sendPrefixRequest();
      const sessionId = await curatorComment(token, 'Which licence do the records have?');
      const page = await openPage(`/requests/${token}`);
      expect(page.html).toContain('Comment from the curators');
      expect(page.html).toContain('<blockquote>Which licence do the records have?</blockquote>');

      const answered = await postForm(`/requests/${token}/comment`, { comment: 'CC BY 4.0, as the home page says.' }, page);
      expect(answered.status).toBe(303);
      expect(answered.headers.location).toBe(`/requests/${token}?answered=1#history`);

      const events = await t.db('prefixRegistrationSessionEvents').where({ sessionId }).orderBy('id');
      expect(events.map((e: { eventName: string; actor: string }) => [e.eventName, e.actor])).toEqual([
        ['START', 'ANONYMOUS'],
        ['COMMENT', 'curator'],
        ['COMMENT', 'REQUESTER'],
      ]);
      expect(events[2]).toMatchObject({ comment: 'CC BY 4.0, as the home page says.', additionalInformation: 'Source: requester, status page' });

      const after = await request(app).get(`/requests/${token}?answered=1`).set('Accept', HTML);
      expect(after.text).toContain('Your answer was sent to the curators.');
      expect(after.text).toContain('Your answer');
      expect(after.text).toContain('<blockquote>CC BY 4.0, as the home page says.</blockquote>');
      const json = await request(app).get(`/prefixRegistrationApi/status/${token}`);
      expect(json.body.payload.events.map((e: { author?: string }) => e.author ?? null)).toEqual([null, 'curator', 'requester']);
    });

    it('keeps a blank or forged answer out, with the message next to the field (422, 403)', async () => {
      const { token } = await sendPrefixRequest();
      const page = await openPage(`/requests/${token}`);
      const blank = await postForm(`/requests/${token}/comment`, { comment: '   ' }, page);
      expect(blank.status).toBe(422);
      expect(blank.text).toMatch(/id="reply-comment-msg" aria-live="polite">Comment is required<\/p>/);
      const forged = await request(app).post(`/requests/${token}/comment`).set('Accept', HTML).type('form').send({ comment: 'forged' });
      expect(forged.status).toBe(403);
      expect(forged.text).toContain('>forged</textarea>');
      const session = await t.db('prefixRegistrationSessions').where({ token }).first();
      expect(await t.db('prefixRegistrationSessionEvents').where({ sessionId: session.id, eventName: 'COMMENT' })).toEqual([]);
    });

    it('takes no answer once the request is closed (409), and shows the decision without the form', async () => {
      const { token } = await sendPrefixRequest();
      const page = await openPage(`/requests/${token}`);
      const session = await t.db('prefixRegistrationSessions').where({ token }).first();
      const rejected = await request(app)
        .post(`/prefixRegistrationApi/rejectPrefixRegistrationRequest/${session.id}`)
        .set('Authorization', `Bearer ${CURATOR_TOKEN}`)
        .send({ apiVersion: '1.0', payload: { rejectionReason: 'Already covered by another namespace.' } });
      expect(rejected.status).toBe(200);

      const late = await postForm(`/requests/${token}/comment`, { comment: 'Wait!' }, page);
      expect(late.status).toBe(409);
      const res = await request(app).get(`/requests/${token}`).set('Accept', HTML);
      expect(res.text).toContain('Rejected');
      expect(res.text).toContain('<blockquote>Already covered by another namespace.</blockquote>');
      expect(res.text).not.toContain('Answer the curators');
    });

    it('answers 404 with a page for a token no request has', async () => {
      const res = await request(app).get('/requests/nosuchtoken').set('Accept', HTML);
      expect(res.status).toBe(404);
      expect(res.text).toContain('Request not found');
    });

    it('takes the requester’s answer through the JSON API too', async () => {
      const { token } = await sendPrefixRequest();
      const res = await request(app).post(`/prefixRegistrationApi/status/${token}/comment`).send({ apiVersion: '1.0', payload: { comment: 'More details.' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: null, payload: { comment: null } });
      const blank = await request(app).post(`/prefixRegistrationApi/status/${token}/comment`).send({ apiVersion: '1.0', payload: { comment: '' } });
      expect({ status: blank.status, message: blank.body.errorMessage }).toEqual({ status: 400, message: 'Comment is required' });
      const unknown = await request(app).post('/prefixRegistrationApi/status/nosuchtoken/comment').send({ apiVersion: '1.0', payload: { comment: 'x' } });
      expect(unknown.status).toBe(404);
      const wrongKind = await request(app).post(`/resourceManagementApi/status/${token}/comment`).send({ apiVersion: '1.0', payload: { comment: 'x' } });
      expect(wrongKind.status).toBe(404);
    });
  });

  describe('the security headers of the pages', () => {
    /** The policy a page came with, after checking that it keeps every frame out and allows no inline code. */
    function pagePolicy(res: request.Response): string {
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      const policy = String(res.headers['content-security-policy']);
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("default-src 'self'");
      expect(policy).not.toContain('unsafe-inline');
      return policy;
    }

    it("sends every public page kind with the curator desk's Content-Security-Policy, never to be framed", async () => {
      const desk = pagePolicy(await request(app).get('/curation/sign-in').set('Accept', HTML));
      const { token } = await sendPrefixRequest();
      const pages = [
        ['/', 200],
        ['/registry', 200],
        ['/registry?q=taxonomy', 200],
        ['/registry/taxonomy', 200],
        ['/reverse-lookup?url=https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927', 200],
        ['/prefixregistrationrequest', 200],
        ['/resourceregistrationrequest?namespace=taxonomy', 200],
        [`/requests/${token}`, 200],
        ['/requests/no-such-request-token', 404],
        ['/registry/nosuchprefix', 404],
        ['/no/such/page', 404],
      ] as const;
      for (const [path, status] of pages) {
        const res = await request(app).get(path).set('Accept', HTML);
        expect([path, res.status]).toEqual([path, status]);
        expect([path, pagePolicy(res)]).toEqual([path, desk]);
      }
      // A refused form comes back as a page too.
      const form = await openPage('/prefixregistrationrequest');
      const refused = await postForm('/prefixregistrationrequest', {}, form);
      expect(refused.status).toBe(422);
      expect(pagePolicy(refused)).toBe(desk);
    });
  });
});
