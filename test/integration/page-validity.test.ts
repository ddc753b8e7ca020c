/**
 * Every page a person can reach is valid HTML5 (issue 13's quality bar), checked offline by html-validate
 * with its standard rules (the WHATWG content models, attributes, ids, nesting) and its accessibility rules
 * (labelled inputs, headings, landmarks): the pages as a browser gets them, requester status page and
 * refused form included, and the resolver's pages (its `/` and its failure pages). The browser tests add
 * axe-core on the rendered pages.
 */
import type { RequestListener } from 'node:http';
import { HtmlValidate, type Message } from 'html-validate';
import request from 'supertest';
import { CSRF_FIELD } from '../../src/web/csrf.js';
import { prefixRegistration, unique } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const CURATOR_TOKEN = 'validity-curator-token-of-at-least-32-characters';

const validator = new HtmlValidate({ extends: ['html-validate:standard', 'html-validate:a11y'] });

/** Each problem as `line:column rule: message`, so a failure says where and what. */
async function problemsOf(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) => result.messages.map((m: Message) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
}

describe('page validity', () => {
  let t: RegistryUnderTest;
  let token: string;
  let resolver: RequestListener | undefined;

  beforeAll(async () => {
    t = await startRegistry('page_validity', { registration: regexpChecks, env: { CURATOR_TOKEN } });
    const sent = await request(t.app)
      .post('/prefixRegistrationApi/registerPrefix')
      // An institution the registry has under another ROR id: the desk's request page shows the difference.
      .send({ apiVersion: '1.0', payload: prefixRegistration(unique('valid'), { institutionName: 'The Jackson Laboratory', institutionRorId: '0zzzzzz99' }) });
    expect(sent.status).toBe(200);
    token = sent.body.payload.token as string;
    // More than a page of open requests: the desk's list has its page links.
    for (let i = 0; i < 20; i++) {
      const more = await request(t.app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration(unique('valid')) });
      expect(more.status).toBe(200);
    }
  });
  afterAll(() => t.close());

  const pages: [name: string, path: () => string, status: number][] = [
    ['home', () => '/', 200],
    ['browse', () => '/registry', 200],
    ['search', () => '/registry?q=tax', 200],
    ['search without matches', () => '/registry?q=zzzzzzzz', 200],
    ['namespace', () => '/registry/taxonomy', 200],
    ['unknown namespace', () => '/registry/taxonmy', 404],
    ['unknown address', () => '/no/such/page', 404],
    ['reverse lookup', () => '/reverse-lookup?url=https%3A%2F%2Fwww.ncbi.nlm.nih.gov%2FTaxonomy%2FBrowser%2Fwwwtax.cgi%3Fmode%3DInfo%26id%3D9606', 200],
    ['embedding the search box', () => '/embed', 200],
    ['prefix request form', () => '/prefixregistrationrequest', 200],
    ['resource request form', () => '/resourceregistrationrequest', 200],
    ['requester status page', () => `/requests/${token}`, 200],
    ['curator desk sign-in', () => '/curation/sign-in', 200],
  ];

  it.each(pages)('%s is valid HTML5 with a title and a main landmark', async (_name, path, status) => {
    const res = await request(t.app).get(path()).set('Accept', HTML);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<title>[^<]+<\/title>/);
    expect(res.text).toMatch(/<main[\s>]/);
    expect(await problemsOf(res.text)).toEqual([]);
  });

  // The resolver's pages: its `/` for a browser, and the failure page for each kind of failure (and for
  // markup in the request, which the page reflects).
  const resolverPages: [name: string, path: string, status: number][] = [
    ['resolver home', '/', 200],
    ['failure: LUI refused by the pattern', '/taxonomy:human', 404],
    ['failure: LUI mended', '/CHEBI/36927', 404],
    ['failure: unknown prefix', '/taxonmy:9606', 404],
    ['failure: no such provider code', '/NCBI/taxonomy:9606', 404],
    ['failure: markup in the request', '/%3Cb%20id=%22x%22%3E:%22%3E%3Cscript%3E', 404],
  ];

  it.each(resolverPages)('the resolver\'s %s page is valid HTML5 with a title and a main landmark', async (_name, path, status) => {
    resolver ??= (await t.resolverApp()).koa.callback();
    const res = await request(resolver).get(path).set('Accept', HTML);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<title>[^<]+<\/title>/);
    expect(res.text).toMatch(/<main[\s>]/);
    expect(await problemsOf(res.text)).toEqual([]);
  });

  it('keeps a refused form valid, its messages and values included', async () => {
    const form = await request(t.app).get('/prefixregistrationrequest').set('Accept', HTML);
    const cookie = (form.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const csrf = new RegExp(`name="${CSRF_FIELD}" value="([^"]+)"`).exec(form.text)?.[1];
    expect(csrf).toBeDefined();
    const refused = await request(t.app)
      .post('/prefixregistrationrequest')
      .set('Accept', HTML)
      .set('Cookie', cookie)
      .type('form')
      .send({ [CSRF_FIELD]: csrf, name: 'x', requestedPrefix: 'Not A Prefix <b>' });
    expect(refused.status).toBe(422);
    // The typed value is kept, escaped: the markup it carries never reaches the page as markup.
    expect(refused.text).toContain('value="Not A Prefix &lt;b');
    expect(refused.text).not.toContain('<b>');
    expect(await problemsOf(refused.text)).toEqual([]);
  });

  it('keeps every page of the curator desk valid, a refused amendment included', async () => {
    const signIn = await request(t.app).get('/curation/sign-in').set('Accept', HTML);
    const csrfCookie = (signIn.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const signInToken = new RegExp(`name="${CSRF_FIELD}" value="([^"]+)"`).exec(signIn.text)![1]!;
    const signedIn = await request(t.app).post('/curation/sign-in').set('Cookie', csrfCookie).type('form').send({ [CSRF_FIELD]: signInToken, token: CURATOR_TOKEN });
    expect(signedIn.status).toBe(303);
    const cookie = (signedIn.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const session = (await t.db('prefixRegistrationSessions').where({ token }).first())!;
    const resource = (await t.db('resources').first('id', 'institutionId'))!;
    // Warnings to show (an institution's, a namespace's and a provider's), and an institution to delete.
    const taxonomy = (await t.db('namespaces').where({ prefix: 'taxonomy' }).first('id'))!;
    const warned = await request(t.app)
      .post('/curationApi/notifications')
      .set('Authorization', `Bearer ${CURATOR_TOKEN}`)
      .send({
        apiVersion: '1.0',
        payload: [
          { targetType: 'institution', targetId: resource.institutionId, globalId: `url-not-ok:institution:home-url:${resource.institutionId}`, type: 'url-not-ok', details: { url: 'https://example.org/' } },
          { targetType: 'namespace', targetId: taxonomy.id, globalId: `curator-review:namespace:description:${taxonomy.id}`, type: 'curator-review', details: { 'field-name': 'description' } },
          { targetType: 'resource', targetId: resource.id, globalId: `low-availability-resource:${resource.id}`, type: 'low-availability-resource', details: { availability: '10' } },
        ],
      });
    expect(warned.status).toBe(200);
    const [unused] = await t.db('institutions').insert({ name: 'Unused <institute>', homeUrl: 'https://unused.example.org/', description: 'x', locationCountryCode: 'GB' }).returning('id');
    const paths = [
      '/curation',
      '/curation?prefixPage=1',
      `/curation/requests/prefix/${session.id}`,
      '/curation/registry?q=tax',
      '/curation/namespaces/taxonomy',
      `/curation/resources/${resource.id}`,
      `/curation/institutions/${resource.institutionId}`,
      `/curation/institutions/${unused!.id}`,
      '/curation/institutions',
      '/curation/institutions?q=Unused%20%3Cinstitute',
      '/curation/warnings',
    ];
    let csrf = '';
    for (const path of paths) {
      const res = await request(t.app).get(path).set('Accept', HTML).set('Cookie', cookie);
      expect([path, res.status]).toEqual([path, 200]);
      if (path === '/curation') expect(res.text).toContain('rel="next"');
      if (path.startsWith('/curation/requests/')) expect(res.text).toContain('Institution differs from the registry’s');
      if (path === '/curation/warnings') expect(res.text).toContain('3 namespaces and institutions with open warnings');
      if (path.startsWith('/curation/institutions?q=')) expect(res.text).toContain('Delete<span class="visually-hidden"> Unused &lt;institute></span>');
      expect([path, await problemsOf(res.text)]).toEqual([path, []]);
      csrf = new RegExp(`name="${CSRF_FIELD}" value="([^"]+)"`).exec(res.text)![1]!;
    }
    const refused = await request(t.app)
      .post(`/curation/requests/prefix/${session.id}/amend`)
      .set('Accept', HTML)
      .set('Cookie', cookie)
      .type('form')
      .send({ [CSRF_FIELD]: csrf, name: 'x <b>', description: 'short' });
    expect(refused.status).toBe(422);
    expect(refused.text).not.toContain('<b>');
    expect(await problemsOf(refused.text)).toEqual([]);
  });
});
