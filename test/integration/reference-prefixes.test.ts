/**
 * Issue 15 item 6: curators load other registries' prefix lists (CLI and desk form); a requested prefix that
 * collides with one of them, whatever its case, passes validateRequestedPrefix with a trailing warning, and
 * the desk shows the warning on the request's page.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { prefixRegistration } from '../factories/registration.factory.js';
import { startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { ROOT } from '../support/processes.js';
import { acceptingChecks } from '../support/stand-in-checks.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const CURATOR_TOKEN = randomBytes(24).toString('hex');

const cookiesOf = (res: request.Response): string[] => (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

let t: RegistryUnderTest;
let app: RequestListener;

beforeAll(async () => {
  t = await startRegistry('reference_prefixes', { registration: acceptingChecks, env: { CURATOR_TOKEN } });
  app = t.app;
});
afterAll(() => t.close());

/** `node dist/src/cli.js reference-prefixes ...` on the test database. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/cli.js'), 'reference-prefixes', ...args], { env: { ...process.env, DATABASE_URL: t.url } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const validate = (requestedPrefix: string) =>
  request(app).post('/prefixRegistrationApi/validateRequestedPrefix').send({ apiVersion: '1.0', payload: { requestedPrefix } });

describe('loading a list with the CLI', () => {
  it("replaces that source's list in one go, leaving other sources alone", async () => {
    const tsv = path.join(os.tmpdir(), `bioregistry-${process.pid}.tsv`);
    writeFileSync(tsv, 'prefix\tname\nncbitaxon\tNCBI Taxonomy\nfbbt\tDrosophila gross anatomy\n');
    const first = await runCli(['--source', 'bioregistry', tsv]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/Loaded 2 prefixes of bioregistry \(replacing 0\)/);
    const csv = path.join(os.tmpdir(), `n2t-${process.pid}.csv`);
    writeFileSync(csv, 'prefix,name\nNCBITaxon,"NCBI Taxonomy, at N2T"\n');
    expect((await runCli(['--source', 'n2t', csv])).code).toBe(0);

    writeFileSync(tsv, 'prefix\tname\nncbitaxon\tNCBI Taxonomy\nuberon\tUber Anatomy Ontology\n');
    const again = await runCli(['--source', 'bioregistry', tsv]);
    expect(again.stdout).toMatch(/Loaded 2 prefixes of bioregistry \(replacing 2\)/);
    const rows = await t.db('reference_prefixes').orderBy(['source', 'prefix']).select('source', 'prefix');
    expect(rows).toEqual([
      { source: 'bioregistry', prefix: 'ncbitaxon' },
      { source: 'bioregistry', prefix: 'uberon' },
      { source: 'n2t', prefix: 'NCBITaxon' },
    ]);
  });

  it('refuses a list it cannot read, changing nothing', async () => {
    const bad = path.join(os.tmpdir(), `bad-${process.pid}.json`);
    writeFileSync(bad, '{"broken"');
    const refused = await runCli(['--source', 'bioregistry', bad]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/List rejected: the list is not valid JSON/);
    expect(Number((await t.db('reference_prefixes').where({ source: 'bioregistry' }).count({ n: '*' }))[0]!.n)).toBe(2);
    expect((await runCli(['bioregistry', bad])).code).toBe(2);
  });
});

describe('validateRequestedPrefix', () => {
  it('warns, whatever the case, naming each registry that has the prefix, and stays valid', async () => {
    const answer = await validate('ncbitaxon');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      apiVersion: '1.0',
      errorMessage: null,
      payload: {
        comment: 'VALIDATION OK',
        token: '',
        warnings: ['ncbitaxon is the prefix of NCBI Taxonomy in bioregistry', 'NCBITaxon is the prefix of NCBI Taxonomy, at N2T in n2t'],
      },
    });
  });

  it('answers a prefix no other registry has exactly as the reference does', async () => {
    const answer = await validate('mynewprefix');
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('{"apiVersion":"1.0","errorMessage":null,"payload":{"comment":"VALIDATION OK","token":""}}');
  });

  it('still fails a prefix that is taken, without warnings', async () => {
    const answer = await validate('taxonomy');
    expect(answer.status).toBe(400);
    expect(answer.body.payload).toEqual({ comment: 'VALIDATION FAILED', token: '' });
  });
});

describe('the curator desk', () => {
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    const form = await request(app).get('/curation/sign-in').set('Accept', HTML);
    const formCookie = cookiesOf(form).find((c) => c.startsWith('registry_csrf='))!.split(';')[0]!;
    const signedIn = await request(app)
      .post('/curation/sign-in')
      .set('Accept', HTML)
      .set('Cookie', formCookie)
      .type('form')
      .send({ csrf: csrfOf(form.text), token: CURATOR_TOKEN, next: '/curation' });
    cookie = cookiesOf(signedIn).find((c) => c.startsWith('registry_curator='))!.split(';')[0]!;
    csrf = csrfOf((await request(app).get('/curation').set('Accept', HTML).set('Cookie', cookie)).text);
  });

  it('loads a pasted list from its form and lists the sources', async () => {
    const posted = await request(app)
      .post('/curation/reference-prefixes')
      .set('Accept', HTML)
      .set('Cookie', cookie)
      .type('form')
      .send({ csrf, source: 'obofoundry', format: '', list: '[{"prefix":"uberon","name":"Uberon multi-species anatomy ontology"}]' });
    expect(posted.status).toBe(303);
    const page = await request(app).get(posted.headers.location!).set('Accept', HTML).set('Cookie', cookie);
    expect(page.text).toContain('Loaded: 1 prefixes of obofoundry.');
    expect(page.text).toMatch(/<td>obofoundry<\/td>\s*<td>1<\/td>/);

    const refused = await request(app).post('/curation/reference-prefixes').set('Accept', HTML).set('Cookie', cookie).type('form').send({ csrf, source: 'bad name', list: 'x' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Name the registry in letters');
  });

  it("shows the collision on a prefix request's page", async () => {
    const submitted = await request(app).post('/prefixRegistrationApi/registerPrefix').send({ apiVersion: '1.0', payload: prefixRegistration('uberon') });
    expect(submitted.status).toBe(200);
    const session = await t.db('prefixRegistrationSessions').where({ token: submitted.body.payload.token }).first();
    const page = await request(app).get(`/curation/requests/prefix/${session.id}`).set('Accept', HTML).set('Cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Prefix used elsewhere');
    expect(page.text).toContain('uberon is the prefix of Uber Anatomy Ontology in bioregistry');
    expect(page.text).toContain('uberon is the prefix of Uberon multi-species anatomy ontology in obofoundry');
  });
});
