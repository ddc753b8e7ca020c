import type { RequestListener } from 'node:http';
import request from 'supertest';
import { CheckBusyError, CheckStillRunningError, CheckUnavailableError, type RegexTest, type UrlCheck } from '../../src/registry/model/registration-checks.js';
import { normaliseRegistrationPayload } from '../../src/registry/model/registration-payload.js';
import {
  CachedRegistryLookups,
  directLookups,
  runChain,
  validateAll,
  type RegistrationDeps,
} from '../../src/registry/registration/validation/run-chains.js';
import { RESOLVER_URL as RESOLVER, startRegistry, type RegistryUnderTest } from '../support/areas.js';
import { sendPreflight } from '../support/cors.js';

// The URL check and the regex test stand in for the queue-backed UrlCheck and the worker-thread RegexTest,
// which have tests of their own: here the URL verdicts come from a small table and the regex test uses
// JavaScript's RegExp as a whole-string match.
const urlCalls: { url: string; isProtected: boolean }[] = [];
const EBI_HOME = 'https://www.ebi.ac.uk';
const urlVerdicts = new Map<string, string | Error>([
  ['https://broken.test/', 'Status 404 NOT_FOUND is not acceptable for URL https://broken.test/'],
  ['https://broken.test/records/123', 'Status 404 NOT_FOUND is not acceptable for URL https://broken.test/records/123'],
  ['https://slow.test/', new CheckStillRunningError('still running')],
  ['https://slow.test/records/123', new CheckStillRunningError('still running')],
  ['https://down.test/', new CheckUnavailableError('queue unreachable')],
  // The sample registry's EMBL-EBI (ROR id 02catss52), whose site is slow today.
  [EBI_HOME, new CheckStillRunningError('still running')],
]);
const urlCheck: UrlCheck = async (url, { isProtected }) => {
  urlCalls.push({ url, isProtected });
  if (url.startsWith('https://login.test/')) return isProtected ? null : `Status 401 UNAUTHORIZED is not acceptable for URL ${url}`;
  const verdict = urlVerdicts.get(url);
  if (verdict instanceof Error) throw verdict;
  return verdict ?? null;
};
const regexCalls: string[] = [];
const regexTest: RegexTest = async (pattern, sample) => {
  regexCalls.push(pattern);
  try {
    const compiled = new RegExp(`^(?:${pattern})$`);
    return sample === null ? { compiles: true } : { compiles: true, matches: compiled.test(sample) };
  } catch (error) {
    return { compiles: false, error: `Invalid regex: ${(error as Error).message}` };
  }
};

const DESCRIPTION = 'A database of example records, described at length for the curators of the registry.';
const TAXONOMY_NCBI_PATTERN = 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id={$id}';

const validPrefixRequest = {
  name: 'Example records',
  description: DESCRIPTION,
  requestedPrefix: 'examplerecords',
  providerHomeUrl: 'https://example.org/',
  providerName: 'Example provider',
  providerDescription: DESCRIPTION,
  providerLocation: 'GB',
  providerCode: 'exprov',
  institutionName: 'Example institute',
  institutionHomeUrl: 'https://institute.example.org/',
  institutionDescription: DESCRIPTION,
  institutionLocation: 'gb',
  providerUrlPattern: 'https://example.org/records/{$id}',
  sampleId: '12345',
  idRegexPattern: '\\d+',
  references: ['https://doi.org/10.1000/182'],
  additionalInformation: 'nothing else',
  requester: { name: 'Ann Example', email: 'ann@example.org' },
  protectedUrls: false,
};

const PREFIX_OK = '{"apiVersion":"1.0","errorMessage":null,"payload":{"comment":"VALIDATION OK","token":""}}';
const RESOURCE_OK = '{"apiVersion":"1.0","errorMessage":null,"payload":{"comment":"VALIDATION OK"}}';

describe('registration field validators', () => {
  let t: RegistryUnderTest;
  let app: RequestListener;
  let deps: RegistrationDeps;

  beforeAll(async () => {
    t = await startRegistry('registration_validators', { registration: { urlCheck, regexTest } });
    app = t.app;
    deps = { lookups: directLookups(t.db), urlCheck, regexTest, minDescriptionLength: 50, similarityThreshold: 0.9, publicResolverUrl: RESOLVER };
  });
  afterAll(() => t.close());
  beforeEach(() => {
    urlCalls.length = 0;
  });

  const post = (path: string, payload: unknown) => request(app).post(path).send({ apiVersion: '1.0', payload });

  async function expectOk(path: string, payload: unknown): Promise<void> {
    const res = await post(path, payload);
    expect({ status: res.status, text: res.text }).toEqual({
      status: 200,
      text: path.startsWith('/prefixRegistrationApi/') ? PREFIX_OK : RESOURCE_OK,
    });
    expect(res.type).toBe('application/json');
  }

  async function expectFailure(path: string, payload: unknown, message: string): Promise<void> {
    const res = await post(path, payload);
    const comment = path.startsWith('/prefixRegistrationApi/') ? { comment: 'VALIDATION FAILED', token: '' } : { comment: 'VALIDATION FAILED' };
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { apiVersion: '1.0', errorMessage: message, payload: comment } });
  }

  const P = (name: string) => `/prefixRegistrationApi/${name}`;
  const R = (name: string) => `/resourceManagementApi/${name}`;

  describe('envelope', () => {
    it('answers 200 VALIDATION OK with the three envelope fields in order, prefix payloads with an empty token', async () => {
      const res = await post(P('validateName'), { name: 'Example records' });
      expect(res.status).toBe(200);
      expect(res.text).toBe(PREFIX_OK);
      expect(Object.keys(res.body)).toEqual(['apiVersion', 'errorMessage', 'payload']);
    });

    it('answers resource validations without a token', async () => {
      await expectOk(R('validateProviderName'), { providerName: 'Example provider' });
      await expectFailure(R('validateProviderName'), {}, 'Provider Name is required');
    });

    it('answers 400 Payload is required without a payload, on the resource endpoints too', async () => {
      for (const path of [P('validateName'), R('validateNamespacePrefix'), R('validateRequester')]) {
        for (const body of [{ apiVersion: '1.0' }, { apiVersion: '1.0', payload: null }]) {
          const res = await request(app).post(path).send(body);
          expect({ status: res.status, body: res.body }).toEqual({
            status: 400,
            body: { apiVersion: '1.0', errorMessage: 'Payload is required', payload: null },
          });
        }
      }
      const empty = await request(app).post(P('validateName')).set('Content-Type', 'application/json');
      expect(empty.status).toBe(400);
      expect(empty.body.errorMessage).toBe('Payload is required');
    });

    it('answers malformed JSON with a 400 envelope', async () => {
      const res = await request(app).post(P('validateName')).set('Content-Type', 'application/json').send('{"payload": {');
      expect(res.status).toBe(400);
      expect(res.body.apiVersion).toBe('1.0');
      expect(res.body.errorMessage).toMatch(/^Malformed JSON in request body/);
      expect(res.body.payload).toBeNull();
    });

    it('ignores unknown fields and accepts apiVersion as a number', async () => {
      const res = await request(app)
        .post(P('validateName'))
        .send({ apiVersion: 1, payload: { name: 'Example records', colour: 'blue', nested: { a: [1] } } });
      expect(res.status).toBe(200);
      expect(res.text).toBe(PREFIX_OK);
    });

    it('fails a known field of an impossible type with a message naming it', async () => {
      await expectFailure(P('validateProviderName'), { providerName: { text: 'x' } }, "'providerName' must be a string");
      await expectFailure(P('validateName'), 'just text', 'Payload must be a JSON object');
    });

    it('allows the JSON POSTs from any origin, preflight included', async () => {
      const preflight = await sendPreflight(app, P('validateName'), 'https://ui.example.org', 'POST', 'content-type');
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toContain('POST');
      expect(preflight.headers['access-control-allow-headers']?.toLowerCase()).toContain('content-type');
      const res = await request(app)
        .post(R('validateProviderName'))
        .set('Origin', 'https://ui.example.org')
        .send({ apiVersion: '1.0', payload: { providerName: 'x' } });
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('answers 405 in the envelope for another method', async () => {
      const res = await request(app).get(P('validateName'));
      expect(res.status).toBe(405);
      expect(res.body.apiVersion).toBe('1.0');
    });

    it('is not mounted until the registration checks are given', async () => {
      const bare = t.registryApp().callback();
      expect((await request(bare).post(P('validateName')).send({ payload: { name: 'x' } })).status).toBe(404);
    });
  });

  describe('required fields and names', () => {
    it.each([
      ['validateName', 'name', 'Name is required'],
      ['validateProviderName', 'providerName', 'Provider Name is required'],
      ['validateInstitutionName', 'institutionName', 'Institution Name is required'],
      ['validateProviderHomeUrl', 'providerHomeUrl', 'Provider Home URL is required'],
      ['validateInstitutionHomeUrl', 'institutionHomeUrl', 'Institution Home URL is required'],
      ['validateDescription', 'description', 'Description is required'],
      ['validateProviderDescription', 'providerDescription', 'Provider Description is required'],
      ['validateInstitutionDescription', 'institutionDescription', 'Institution Description is required'],
      ['validateProviderLocation', 'providerLocation', 'Provider Location is required'],
      ['validateInstitutionLocation', 'institutionLocation', 'Institution Location is required'],
      ['validateProviderCode', 'providerCode', 'Provider Code is required'],
      ['validateRequestedPrefix', 'requestedPrefix', 'Prefix is required'],
      ['validateProviderUrlPattern', 'providerUrlPattern', 'Provider URL Pattern is required'],
      ['validateSampleId', 'sampleId', 'Sample ID is required'],
      ['validateIdRegexPattern', 'idRegexPattern', 'ID Regex Pattern is required'],
    ])('%s fails a missing, empty or blank %s', async (endpoint, field, message) => {
      await expectFailure(P(endpoint), {}, message);
      await expectFailure(P(endpoint), { [field]: '' }, message);
      await expectFailure(P(endpoint), { [field]: ' \t\n ' }, message);
    });

    it('bounds names by what the registry stores', async () => {
      await expectFailure(P('validateName'), { name: 'n'.repeat(256) }, 'Name is too long');
      await expectOk(P('validateName'), { name: 'n'.repeat(255) });
    });
  });

  describe('descriptions', () => {
    it.each([
      ['validateDescription', 'description', 'Description'],
      ['validateProviderDescription', 'providerDescription', 'Provider Description'],
      ['validateInstitutionDescription', 'institutionDescription', 'Institution Description'],
    ])('%s needs more than 50 characters: exactly 50 fails, 51 passes', async (endpoint, field, label) => {
      await expectFailure(P(endpoint), { [field]: 'x'.repeat(50) }, `${label} MUST be longer than 50 characters`);
      await expectOk(P(endpoint), { [field]: 'x'.repeat(51) });
    });

    it('counts the description trimmed and with whitespace runs collapsed', async () => {
      const spaced = `${'a'.repeat(24)}     \n\t  ${'b'.repeat(25)}`; // 50 once collapsed, 59 as sent
      await expectFailure(P('validateDescription'), { description: spaced }, 'Description MUST be longer than 50 characters');
      await expectFailure(P('validateDescription'), { description: `   ${'x'.repeat(50)}   ` }, 'Description MUST be longer than 50 characters');
      await expectOk(P('validateDescription'), { description: `${'a'.repeat(25)}     ${'b'.repeat(25)}` });
    });

    it('takes the description under providerCode, as the interface sample sends it, when providerDescription is absent', async () => {
      await expectOk(P('validateProviderDescription'), { providerCode: DESCRIPTION });
      await expectOk(R('validateProviderDescription'), { providerCode: DESCRIPTION });
      await expectFailure(P('validateProviderDescription'), { providerCode: 'ebi' }, 'Provider Description MUST be longer than 50 characters');
      await expectFailure(P('validateProviderDescription'), { providerDescription: 'short', providerCode: DESCRIPTION }, 'Provider Description MUST be longer than 50 characters');
    });

    it('checks the authentication help only for protected URLs', async () => {
      await expectOk(P('validateAuthHelpDescription'), {});
      await expectOk(P('validateAuthHelpUrl'), { protectedUrls: false, authHelpUrl: 'notUrl' });
      await expectFailure(P('validateAuthHelpDescription'), { protectedUrls: true }, 'Authentication Instructions is required');
      await expectFailure(
        R('validateAuthHelpDescription'),
        { protectedUrls: true, authHelpDescription: 'Log in first.' },
        'Authentication Instructions MUST be longer than 50 characters',
      );
      await expectOk(P('validateAuthHelpDescription'), { protectedUrls: true, authHelpDescription: DESCRIPTION });
      await expectFailure(P('validateAuthHelpUrl'), { protectedUrls: true }, 'Authentication Instructions URL is required');
      await expectFailure(
        P('validateAuthHelpUrl'),
        { protectedUrls: true, authHelpUrl: 'notUrl' },
        "Authentication Instructions URL 'notUrl' is not a valid URL, make sure it starts with 'http://' or 'https://'",
      );
      await expectOk(P('validateAuthHelpUrl'), { protectedUrls: true, authHelpUrl: 'https://example.org/how-to-log-in' });
      expect(urlCalls).toContainEqual({ url: 'https://example.org/how-to-log-in', isProtected: false });
    });
  });

  describe('home URLs', () => {
    it('accepts a working http(s) URL after checking it live, never as protected', async () => {
      await expectOk(P('validateProviderHomeUrl'), { providerHomeUrl: 'https://example.org/' });
      await expectOk(R('validateInstitutionHomeUrl'), { institutionHomeUrl: 'http://institute.example.org/about', protectedUrls: true });
      expect(urlCalls).toEqual([
        { url: 'https://example.org/', isProtected: false },
        { url: 'http://institute.example.org/about', isProtected: false },
      ]);
    });

    it('names the malformed value in the message', async () => {
      await expectFailure(
        P('validateInstitutionHomeUrl'),
        { institutionHomeUrl: 'notUrl' },
        "Institution Home URL 'notUrl' is not a valid URL, make sure it starts with 'http://' or 'https://'",
      );
      await expectFailure(
        R('validateProviderHomeUrl'),
        { providerHomeUrl: 'www.example.org' },
        "Provider Home URL 'www.example.org' is not a valid URL, make sure it starts with 'http://' or 'https://'",
      );
      await expectFailure(
        P('validateProviderHomeUrl'),
        { providerHomeUrl: 'https://exa mple.org/' },
        "Provider Home URL 'https://exa mple.org/' is not a valid URL, make sure it starts with 'http://' or 'https://'",
      );
      expect(urlCalls).toEqual([]);
    });

    it('refuses other schemes and overlong URLs without fetching them', async () => {
      await expectFailure(P('validateProviderHomeUrl'), { providerHomeUrl: 'ftp://ftp.example.org/pub' }, 'Provider Home URL must be a HTTP(S) URL');
      await expectFailure(
        P('validateInstitutionHomeUrl'),
        { institutionHomeUrl: `https://example.org/${'a'.repeat(2000)}` },
        'Institution Home URL is too long',
      );
      expect(urlCalls).toEqual([]);
    });

    it("reports the URL checker's verdict", async () => {
      await expectFailure(
        P('validateProviderHomeUrl'),
        { providerHomeUrl: 'https://broken.test/' },
        'Status 404 NOT_FOUND is not acceptable for URL https://broken.test/',
      );
    });

    it('asks for a retry, as a validation failure, while the URL check is still running', async () => {
      await expectFailure(
        P('validateProviderHomeUrl'),
        { providerHomeUrl: 'https://slow.test/' },
        'Provider Home URL: the URL check is still running; please retry in a few seconds',
      );
    });

    it('answers 503 with Retry-After when the checks cannot be started', async () => {
      const res = await post(R('validateInstitutionHomeUrl'), { institutionHomeUrl: 'https://down.test/' });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.body).toEqual({
        apiVersion: '1.0',
        errorMessage: 'The URL and pattern checks are temporarily unavailable; please retry in a moment',
        payload: null,
      });
    });

    it("takes the home page of the registry's institution with the request's ROR id without fetching it again (issue 23 item 6)", async () => {
      for (const institutionRorId of ['02catss52', 'https://ror.org/02catss52']) {
        await expectOk(P('validateInstitutionHomeUrl'), { institutionHomeUrl: EBI_HOME, institutionRorId });
        await expectOk(R('validateInstitutionHomeUrl'), { institutionHomeUrl: EBI_HOME, institutionRorId });
      }
      expect(urlCalls).toEqual([]);
      // A request with that institution (as the form's ROR lookup fills it in) is stored at once.
      const prefix = `ror${Date.now().toString(36)}`;
      const sent = await post(P('registerPrefix'), { ...validPrefixRequest, requestedPrefix: prefix, institutionRorId: '02catss52', institutionHomeUrl: EBI_HOME });
      expect({ status: sent.status, message: sent.body.errorMessage }).toEqual({ status: 200, message: null });
      expect(urlCalls.map((c) => c.url)).not.toContain(EBI_HOME);
      urlCalls.length = 0;

      // Without the ROR id, or with another home page, or another institution's ROR id, the page is fetched.
      const still = 'Institution Home URL: the URL check is still running; please retry in a few seconds';
      await expectFailure(P('validateInstitutionHomeUrl'), { institutionHomeUrl: EBI_HOME }, still);
      await expectFailure(P('validateInstitutionHomeUrl'), { institutionHomeUrl: EBI_HOME, institutionRorId: '00f54p054' }, still);
      await expectFailure(R('validateInstitutionHomeUrl'), { institutionHomeUrl: 'https://broken.test/', institutionRorId: '02catss52' }, 'Status 404 NOT_FOUND is not acceptable for URL https://broken.test/');
      // It is still a URL first.
      await expectFailure(
        P('validateInstitutionHomeUrl'),
        { institutionHomeUrl: 'www.ebi.ac.uk', institutionRorId: '02catss52' },
        "Institution Home URL 'www.ebi.ac.uk' is not a valid URL, make sure it starts with 'http://' or 'https://'",
      );
      expect(urlCalls.map((c) => c.url)).toEqual([EBI_HOME, EBI_HOME, 'https://broken.test/']);
    });

    it('validates the URL pattern at validateProviderHomeUrl when only a pattern is sent', async () => {
      await expectFailure(
        P('validateProviderHomeUrl'),
        { providerUrlPattern: 'https://example.org/records/' },
        'Provider URL Pattern must include the placeholder {$id}',
      );
      await expectOk(P('validateProviderHomeUrl'), { providerUrlPattern: 'https://example.org/records/{$id}' });
      await expectFailure(
        R('validateProviderHomeUrl'),
        { providerHomeUrl: 'https://example.org/', providerUrlPattern: 'https://example.org/records/' },
        'Provider URL Pattern must include the placeholder {$id}',
      );
      await expectFailure(P('validateProviderHomeUrl'), { providerHomeUrl: null }, 'Provider Home URL is required');
    });
  });

  describe('locations', () => {
    it('accepts ISO 3166-1 codes in any case and refuses others', async () => {
      await expectOk(P('validateProviderLocation'), { providerLocation: 'GB' });
      await expectOk(P('validateProviderLocation'), { providerLocation: 'gb' });
      await expectOk(R('validateInstitutionLocation'), { institutionLocation: 'Ss' });
      for (const code of ['XX', 'GBR', 'G', 'U K']) {
        await expectFailure(
          P('validateProviderLocation'),
          { providerLocation: code },
          'Invalid code for Provider Location, please use one of the 2 digit ISO 3166 codes',
        );
      }
      await expectFailure(
        R('validateInstitutionLocation'),
        { institutionLocation: 'xx' },
        'Invalid code for Institution Location, please use one of the 2 digit ISO 3166 codes',
      );
    });
  });

  describe('requester', () => {
    it('needs a name, then a valid e-mail address', async () => {
      await expectOk(P('validateRequester'), { requester: { name: 'Ann Example', email: 'ann@example.org' } });
      await expectFailure(P('validateRequester'), {}, 'Requester Name is required');
      await expectFailure(P('validateRequester'), { requester: { email: 'nope' } }, 'Requester Name is required');
      await expectFailure(R('validateRequester'), { requester: { name: 'Ann' } }, 'Requester Email is required');
      await expectFailure(P('validateRequester'), { requester: { name: 'Ann', email: 'ann@localhost' } }, 'ann@localhost is not a valid email address');
    });

    it('checks the name and the e-mail address on their own endpoints', async () => {
      await expectOk(P('validateRequesterName'), { requester: { name: 'Ann' } });
      await expectOk(R('validateRequesterEmail'), { requester: { email: 'ann.example+registry@example.co.uk' } });
      for (const bad of ['ann', 'ann@example', 'ann@@example.org', 'ann example@example.org', 'ann@1.2.3.4']) {
        await expectFailure(P('validateRequesterEmail'), { requester: { email: bad } }, `${bad} is not a valid email address`);
      }
      await expectFailure(R('validateRequesterName'), { requester: { name: '  ' } }, 'Requester Name is required');
    });
  });

  describe('optional fields', () => {
    it('always accepts references, under either name, and additional information as text or a list', async () => {
      await expectOk(P('validateReferences'), { references: ['https://doi.org/10.1000/182'] });
      await expectOk(P('validateReferences'), { supportingReferences: ['https://doi.org/10.1000/182'] });
      await expectOk(P('validateReferences'), {});
      await expectOk(P('validateAdditionalInformation'), { additionalInformation: 'more' });
      await expectOk(P('validateAdditionalInformation'), { additionalInformation: ['more', 'and more'] });
      await expectOk(R('validateAdditionalInformation'), {});
    });
  });

  describe('prefixes', () => {
    it('accepts a free, well-formed requested prefix', async () => {
      await expectOk(P('validateRequestedPrefix'), { requestedPrefix: 'example.records_2' });
    });

    it('refuses anything but lower-case letters, digits, underscores and dots', async () => {
      for (const requestedPrefix of ['Taxonomy', 'my prefix', 'my-prefix', 'my:prefix']) {
        await expectFailure(
          P('validateRequestedPrefix'),
          { requestedPrefix },
          'Requested prefix can only contain lowercase characters, numbers, underscores and dots',
        );
      }
    });

    it('refuses a prefix that exists, whatever case it is stored in', async () => {
      await expectFailure(P('validateRequestedPrefix'), { requestedPrefix: 'taxonomy' }, "Prefix 'taxonomy' already exists");
      await t.db('namespaces').where({ prefix: 'kegg.compound' }).update({ prefix: 'KEGG.compound' });
      try {
        await expectFailure(P('validateRequestedPrefix'), { requestedPrefix: 'kegg.compound' }, "Prefix 'kegg.compound' already exists");
      } finally {
        await t.db('namespaces').where({ prefix: 'KEGG.compound' }).update({ prefix: 'kegg.compound' });
      }
    });

    it('lets new resources join an active namespace only', async () => {
      await expectOk(R('validateNamespacePrefix'), { namespacePrefix: 'taxonomy' });
      await expectOk(R('validateNamespacePrefix'), { namespacePrefix: 'Taxonomy' });
      await expectFailure(R('validateNamespacePrefix'), { namespacePrefix: 'nosuchprefix' }, "Prefix 'nosuchprefix' IS NOT REGISTERED");
      await expectFailure(R('validateNamespacePrefix'), { namespacePrefix: '3dmet' }, "Prefix '3dmet' is DEPRECATED, new resources are not allowed");
      await expectFailure(R('validateNamespacePrefix'), {}, 'Prefix is required');
    });
  });

  describe('provider codes', () => {
    it('refuses a provider code equal to a prefix, in any case', async () => {
      await expectOk(P('validateProviderCode'), { providerCode: 'exprov' });
      const different = (code: string) => `Provider codes must be DIFFERENT from existing prefixes! Namespace '${code}' exists.`;
      await expectFailure(P('validateProviderCode'), { providerCode: 'taxonomy' }, different('taxonomy'));
      await expectFailure(P('validateProviderCode'), { providerCode: 'Taxonomy' }, different('Taxonomy'));
      await expectFailure(R('validateProviderCode'), { providerCode: 'pubmed', namespacePrefix: 'taxonomy' }, different('pubmed'));
    });

    it('needs a new provider code to be unique within its namespace, case-insensitively', async () => {
      const unique = 'Provider codes must be UNIQUE within a namespace! Please pick another code.';
      await expectFailure(R('validateProviderCode'), { providerCode: 'ncbi', namespacePrefix: 'taxonomy' }, unique);
      await expectFailure(R('validateProviderCode'), { providerCode: 'NCBI', namespacePrefix: 'Taxonomy' }, unique);
      await expectOk(R('validateProviderCode'), { providerCode: 'ncbi', namespacePrefix: 'chebi' });
      await expectOk(R('validateProviderCode'), { providerCode: 'newcode', namespacePrefix: 'taxonomy' });
      // Prefix requests create a namespace: no provider of it exists yet.
      await expectOk(P('validateProviderCode'), { providerCode: 'ncbi', namespacePrefix: 'taxonomy' });
      await expectFailure(
        R('validateProviderCode'),
        { providerCode: 'newcode', namespacePrefix: 'nosuchprefix' },
        "Namespace with prefix 'nosuchprefix' does not exist",
      );
    });
  });

  describe('URL patterns', () => {
    it('needs the {$id} placeholder', async () => {
      await expectOk(P('validateProviderUrlPattern'), { providerUrlPattern: 'https://example.org/records/{$id}' });
      await expectFailure(
        R('validateProviderUrlPattern'),
        { providerUrlPattern: 'https://example.org/records/$id' },
        'Provider URL Pattern must include the placeholder {$id}',
      );
    });

    it('refuses a pattern much like an existing one and points at the existing namespace', async () => {
      const similar = `${TAXONOMY_NCBI_PATTERN}&lvl=3`;
      await expectFailure(
        P('validateProviderUrlPattern'),
        { providerUrlPattern: similar },
        "URL Pattern is similar to existing registry entry. You should be able to use the existing 'taxonomy' namespace. Please contact us if you need any assistance.",
      );
      await expectFailure(
        P('validateProviderUrlPattern'),
        { providerUrlPattern: TAXONOMY_NCBI_PATTERN, sampleId: '9606' },
        `URL Pattern is similar to existing registry entry. The URL ${RESOLVER}/taxonomy:9606 should be what you want. Please contact us if you need any assistance.`,
      );
    });

    it("names the existing provider's code in the suggested URL when the request names a code", async () => {
      await expectFailure(
        P('validateProviderUrlPattern'),
        { providerUrlPattern: `${TAXONOMY_NCBI_PATTERN}&lvl=3`, sampleId: '9606', providerCode: 'mine' },
        `URL Pattern is similar to existing registry entry. The URL ${RESOLVER}/ncbi/taxonomy:9606 should be what you want. Please contact us if you need any assistance.`,
      );
      // The existing provider has no code: no empty path segment.
      await expectFailure(
        P('validateProviderUrlPattern'),
        { providerUrlPattern: 'https://purl.uniprot.org/taxonomy/{$id}/x', sampleId: '9606', providerCode: 'mine' },
        `URL Pattern is similar to existing registry entry. The URL ${RESOLVER}/taxonomy:9606 should be what you want. Please contact us if you need any assistance.`,
      );
    });

    it('lets a second provider of a namespace look like the first, but not like another namespace', async () => {
      const similar = `${TAXONOMY_NCBI_PATTERN}&lvl=3`;
      await expectOk(R('validateProviderUrlPattern'), { providerUrlPattern: similar, namespacePrefix: 'taxonomy' });
      await expectOk(R('validateProviderUrlPattern'), { providerUrlPattern: similar, namespacePrefix: 'TAXONOMY' });
      await expectFailure(
        R('validateProviderUrlPattern'),
        { providerUrlPattern: similar, namespacePrefix: 'pubmed' },
        "URL Pattern is similar to existing registry entry. You should be able to use the existing 'taxonomy' namespace. Please contact us if you need any assistance.",
      );
    });

    it('ignores deprecated resources and namespaces for new providers, not for new namespaces', async () => {
      // Like pubmed's deprecated linkedlifedata resource, then like the active resource of deprecated 3dmet.
      for (const [pattern, prefix] of [
        ['http://linkedlifedata.com/resource/pubmed/ids/{$id}', 'pubmed'],
        ['http://www.3dmet.dna.affrc.go.jp/cgi/show_data.php?acc={$id}&v=2', '3dmet'],
      ] as const) {
        await expectOk(R('validateProviderUrlPattern'), { providerUrlPattern: pattern, namespacePrefix: 'taxonomy' });
        await expectFailure(
          P('validateProviderUrlPattern'),
          { providerUrlPattern: pattern },
          `URL Pattern is similar to existing registry entry. You should be able to use the existing '${prefix}' namespace. Please contact us if you need any assistance.`,
        );
      }
    });

    it('bounds the pattern length', async () => {
      await expectFailure(
        P('validateProviderUrlPattern'),
        { providerUrlPattern: `https://example.org/{$id}/${'a'.repeat(2000)}` },
        'Provider URL Pattern is too long',
      );
    });
  });

  describe('sample ids', () => {
    it('needs the URL pattern as well: its absence fails after the sample id passes its own checks', async () => {
      await expectFailure(P('validateSampleId'), { sampleId: '123' }, 'Provider URL Pattern is required');
      await expectFailure(R('validateSampleId'), { sampleId: '123', namespacePrefix: 'taxonomy' }, 'Provider URL Pattern is required');
      await expectFailure(P('validateSampleId'), { sampleId: 'abc', idRegexPattern: '\\d+' }, 'Sample ID does not match ID pattern');
      await expectFailure(P('validateSampleId'), { providerUrlPattern: 'https://example.org/records/{$id}' }, 'Sample ID is required');
    });

    it('checks the sample URL live, as protected when the request says so', async () => {
      await expectOk(P('validateSampleId'), { sampleId: '123', providerUrlPattern: 'https://example.org/records/{$id}' });
      expect(urlCalls).toEqual([{ url: 'https://example.org/records/123', isProtected: false }]);
      await expectFailure(
        P('validateSampleId'),
        { sampleId: '1', providerUrlPattern: 'https://login.test/item/{$id}' },
        'Status 401 UNAUTHORIZED is not acceptable for URL https://login.test/item/1',
      );
      await expectOk(P('validateSampleId'), { sampleId: '1', providerUrlPattern: 'https://login.test/item/{$id}', protectedUrls: true });
      await expectFailure(
        R('validateSampleId'),
        { sampleId: '123', providerUrlPattern: 'https://broken.test/records/{$id}', namespacePrefix: 'taxonomy' },
        'Status 404 NOT_FOUND is not acceptable for URL https://broken.test/records/123',
      );
      await expectFailure(
        P('validateSampleId'),
        { sampleId: 'a b', providerUrlPattern: 'https://example.org/records/{$id}' },
        "Sample ID 'https://example.org/records/a b' is not a valid URL, make sure it starts with 'http://' or 'https://'",
      );
    });

    it('asks for a retry while the sample URL check is still running', async () => {
      await expectFailure(
        P('validateSampleId'),
        { sampleId: '123', providerUrlPattern: 'https://slow.test/records/{$id}' },
        'Sample ID: the URL check is still running; please retry in a few seconds',
      );
    });

    it("tests a new provider's sample id against its namespace's stored pattern", async () => {
      const pattern = 'https://example.org/records/{$id}';
      await expectOk(R('validateSampleId'), { sampleId: '9606', providerUrlPattern: pattern, namespacePrefix: 'taxonomy' });
      await expectFailure(R('validateSampleId'), { sampleId: 'abc', providerUrlPattern: pattern, namespacePrefix: 'taxonomy' }, 'Sample ID does not match ID pattern');
      await expectFailure(R('validateSampleId'), { sampleId: '9606', providerUrlPattern: pattern, namespacePrefix: 'nosuch' }, 'Prefix nosuch does not exist');
      // Without a namespace there is no stored pattern to test.
      await expectOk(R('validateSampleId'), { sampleId: 'abc', providerUrlPattern: pattern });
    });

    it('takes the id of a namespace whose identifiers start with the prefix with or without it, as the form says', async () => {
      // chebi's pattern is ^CHEBI:\d+$ and the registry keeps its ids as 36927; the reference refused that form.
      const chebi = 'https://example.org/chebi?id=CHEBI:{$id}';
      await expectOk(R('validateSampleId'), { sampleId: '36927', providerUrlPattern: chebi, namespacePrefix: 'chebi' });
      await expectOk(R('validateSampleId'), { sampleId: 'CHEBI:36927', providerUrlPattern: 'https://example.org/chebi/{$id}', namespacePrefix: 'chebi' });
      await expectFailure(R('validateSampleId'), { sampleId: 'x36927', providerUrlPattern: chebi, namespacePrefix: 'chebi' }, 'Sample ID does not match ID pattern');
      // Prefix requests: as the requested prefix is spelled in the requested pattern, when the box is ticked.
      const go = { providerUrlPattern: 'https://example.org/go/GO:{$id}', idRegexPattern: '^GO:\\d{7}$', requestedPrefix: 'go' };
      await expectOk(P('validateSampleId'), { ...go, sampleId: '0006915', namespaceEmbeddedInLui: true });
      await expectOk(P('validateSampleId'), { ...go, sampleId: 'GO:0006915', namespaceEmbeddedInLui: true });
      await expectFailure(P('validateSampleId'), { ...go, sampleId: '0006915', namespaceEmbeddedInLui: false }, 'Sample ID does not match ID pattern');
    });
  });

  describe('ID regex patterns', () => {
    it('needs the sample id as well: its absence fails after the pattern passes its own checks', async () => {
      await expectFailure(P('validateIdRegexPattern'), { idRegexPattern: '\\d+' }, 'Sample ID is required');
      await expectOk(P('validateIdRegexPattern'), { idRegexPattern: '^\\d+$', sampleId: '9606' });
    });

    it('refuses a pattern that does not compile, with the compiler message', async () => {
      const res = await post(P('validateIdRegexPattern'), { idRegexPattern: '[a-', sampleId: 'a' });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/^Invalid regex: /);
      expect(res.body.payload).toEqual({ comment: 'VALIDATION FAILED', token: '' });
    });

    it("refuses ncbiprotein's pattern, which backtracks catastrophically, saying why and how to fix it, before the worker-thread test", async () => {
      regexCalls.length = 0;
      const res = await post(P('validateIdRegexPattern'), { idRegexPattern: '^\\w+_?\\d+(.\\d+)?$', sampleId: 'CAA71118.1' });
      expect(res.status).toBe(400);
      expect(res.body.payload).toEqual({ comment: 'VALIDATION FAILED', token: '' });
      const message = res.body.errorMessage as string;
      expect(message).toMatch(/^ID Regex Pattern can backtrack catastrophically: rejecting some identifiers takes cubic time, for example '0' \+ .*\.repeat\(\d+\)/);
      expect(message).toContain("because its parts '\\w', '\\d'");
      expect(message).toContain('can match the same characters in more than one way.');
      expect(message).toMatch(/Rewrite it so that each character can be matched in only one way \(for example '\[A-Z\]\+\\d\+' rather than '\\w\+\\d\+'\)$/);
      expect(regexCalls).toEqual([]);
    });

    it('refuses a pattern with exponential backtracking', async () => {
      const res = await post(P('validateIdRegexPattern'), { idRegexPattern: '^(a+)+$', sampleId: 'aaa' });
      expect(res.status).toBe(400);
      expect(res.body.errorMessage).toMatch(/^ID Regex Pattern can backtrack catastrophically: rejecting some identifiers takes exponential time/);
    });

    it('accepts a pattern that cannot backtrack catastrophically, and reports a broken one as a syntax error', async () => {
      await expectOk(P('validateIdRegexPattern'), { idRegexPattern: '^[A-Z]+_?\\d+(\\.\\d+)?$', sampleId: 'CAA71118.1' });
      const res = await post(P('validateIdRegexPattern'), { idRegexPattern: '(a+)+[', sampleId: 'a' });
      expect(res.body.errorMessage).toMatch(/^Invalid regex: /);
    });

    it('tests the sample id as a whole-string match', async () => {
      await expectFailure(P('validateIdRegexPattern'), { idRegexPattern: '\\d+', sampleId: '9606a' }, 'Sample ID does not match ID pattern');
      await expectFailure(P('validateIdRegexPattern'), { idRegexPattern: '\\d{2}', sampleId: '9606' }, 'Sample ID does not match ID pattern');
    });
  });

  describe('ROR ids', () => {
    const rorPost = (payload: unknown) => request(app).post('/rorIdApi/getInstitutionForRorId').send({ apiVersion: '1.0', payload });

    it('answers the registry institution with that ROR id as a bare object', async () => {
      const res = await rorPost({ rorId: 'https://ror.org/02catss52' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['id', 'name', 'homeUrl', 'description', 'rorId', 'location']);
      expect(res.body).toMatchObject({
        name: 'European Bioinformatics Institute',
        rorId: 'https://ror.org/02catss52',
        location: { countryCode: 'GB', countryName: 'United Kingdom' },
      });
      expect(typeof res.body.homeUrl).toBe('string');
      expect(typeof res.body.description).toBe('string');
    });

    it('also finds it by the bare id', async () => {
      const full = await rorPost({ rorId: 'https://ror.org/02catss52' });
      const bare = await rorPost({ rorId: '02catss52' });
      expect(bare.status).toBe(200);
      expect(bare.body).toEqual(full.body);
    });

    it('answers 404 in the envelope for an id the registry does not know', async () => {
      const res = await rorPost({ rorId: 'https://ror.org/00f54p054' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: "No institution with ROR ID 'https://ror.org/00f54p054' in the registry", payload: null });
    });

    it('answers 400 without a payload or a ROR id', async () => {
      const noPayload = await request(app).post('/rorIdApi/getInstitutionForRorId').send({ apiVersion: '1.0' });
      expect({ status: noPayload.status, message: noPayload.body.errorMessage }).toEqual({ status: 400, message: 'Payload is required' });
      const noId = await rorPost({});
      expect({ status: noId.status, message: noId.body.errorMessage }).toEqual({ status: 400, message: 'ROR ID is required' });
    });
  });

  describe('cached registry lookups (field validator endpoints)', () => {
    it('sees a registry change once the version is read again, and keeps answers in between', async () => {
      const fresh = new CachedRegistryLookups(t.db, { versionCheckIntervalMs: 0 });
      const lazy = new CachedRegistryLookups(t.db, { versionCheckIntervalMs: 60_000 });
      expect(await fresh.namespace('Taxonomy')).toMatchObject({ prefix: 'taxonomy', deprecated: false });
      expect(await lazy.namespace('taxonomy')).toMatchObject({ prefix: 'taxonomy', deprecated: false });
      await t.db('namespaces').where({ prefix: 'taxonomy' }).update({ deprecated: true });
      try {
        expect(await fresh.namespace('taxonomy')).toMatchObject({ deprecated: true });
        expect(await lazy.namespace('taxonomy')).toMatchObject({ deprecated: false });
      } finally {
        await t.db('namespaces').where({ prefix: 'taxonomy' }).update({ deprecated: false });
      }
    });

    it('answers provider codes and similar patterns as the direct queries do', async () => {
      const cached = new CachedRegistryLookups(t.db);
      const taxonomy = await cached.namespace('taxonomy');
      expect(await cached.providerCodeTaken(taxonomy!.id, 'NCBI')).toBe(true);
      expect(await cached.providerCodeTaken(taxonomy!.id, 'nobody')).toBe(false);
      const query = { kind: 'resource', namespacePrefix: 'pubmed', threshold: 0.9 } as const;
      expect(await cached.similarResource(TAXONOMY_NCBI_PATTERN, query)).toEqual({ providerCode: 'ncbi', prefix: 'taxonomy' });
      expect(await cached.similarResource(TAXONOMY_NCBI_PATTERN, { ...query, namespacePrefix: 'taxonomy' })).toBeUndefined();
    });
  });

  describe('validateAll (registration requests)', () => {
    it('finds nothing wrong with a complete, valid prefix request', async () => {
      expect(await validateAll('prefix', normaliseRegistrationPayload(validPrefixRequest), deps)).toEqual([]);
    });

    it('checks the sample URL once although two chains use it', async () => {
      await validateAll('prefix', normaliseRegistrationPayload(validPrefixRequest), deps);
      expect(urlCalls.filter((c) => c.url === 'https://example.org/records/12345')).toHaveLength(1);
      expect(urlCalls.map((c) => c.url).sort()).toEqual(['https://example.org/', 'https://example.org/records/12345', 'https://institute.example.org/']);
    });

    it('reports one message per failing chain, in chain order', async () => {
      const payload = normaliseRegistrationPayload({
        ...validPrefixRequest,
        name: '',
        providerHomeUrl: 'notUrl',
        providerLocation: 'XX',
        requestedPrefix: 'taxonomy',
        sampleId: 'abc',
        requester: { name: 'Ann', email: 'ann' },
        protectedUrls: true,
      });
      expect(await validateAll('prefix', payload, deps)).toEqual([
        'Name is required',
        "Provider Home URL 'notUrl' is not a valid URL, make sure it starts with 'http://' or 'https://'",
        'Invalid code for Provider Location, please use one of the 2 digit ISO 3166 codes',
        "Prefix 'taxonomy' already exists",
        'Sample ID does not match ID pattern',
        'Sample ID does not match ID pattern',
        'ann is not a valid email address',
        'Authentication Instructions URL is required',
        'Authentication Instructions is required',
      ]);
    });

    it('validates a resource request with the resource rules only', async () => {
      const payload = normaliseRegistrationPayload({ ...validPrefixRequest, namespacePrefix: 'taxonomy', sampleId: '9606', providerCode: 'ncbi' });
      expect(await validateAll('resource', payload, deps)).toEqual(['Provider codes must be UNIQUE within a namespace! Please pick another code.']);
    });

    it('runs the slow checks of different chains concurrently', async () => {
      let started = 0;
      let release: () => void = () => undefined;
      const allStarted = new Promise<void>((resolve) => (release = resolve));
      const timers: NodeJS.Timeout[] = [];
      const gatedCheck: UrlCheck = async () => {
        started += 1;
        if (started === 3) release();
        // Sequential checks would never reach three at once: they time out into a failure message instead.
        const timedOut = await Promise.race([
          allStarted.then(() => false),
          new Promise<boolean>((resolve) => timers.push(setTimeout(() => resolve(true), 2000))),
        ]);
        return timedOut ? 'checks ran one after the other' : null;
      };
      try {
        const messages = await validateAll('prefix', normaliseRegistrationPayload(validPrefixRequest), { ...deps, urlCheck: gatedCheck });
        expect(messages).toEqual([]);
        expect(started).toBe(3);
      } finally {
        for (const timer of timers) clearTimeout(timer);
      }
    });

    it('rejects with CheckUnavailableError rather than reporting a message when the checks cannot start', async () => {
      const payload = normaliseRegistrationPayload({ ...validPrefixRequest, institutionHomeUrl: 'https://down.test/' });
      await expect(validateAll('prefix', payload, deps)).rejects.toBeInstanceOf(CheckUnavailableError);
    });

    it('runs a single chain, passing the chains that do not apply to the kind of request', async () => {
      const payload = normaliseRegistrationPayload({ name: '' });
      expect(await runChain('namespaceName', 'prefix', payload, deps)).toBe('Name is required');
      expect(await runChain('namespaceName', 'resource', payload, deps)).toBeNull();
      expect(await runChain('idRegexPattern', 'resource', payload, deps)).toBeNull();
    });
  });

  describe('the requester address (issue 10: pattern checks are shared fairly between clients)', () => {
    const BUSY_PATTERN = '^busy\\d+$';
    const BUSY_MESSAGE = 'Too many pattern checks from your address are under way (at most 2 at once); please retry when they have been answered';
    const clients: (string | undefined)[] = [];
    const clientAwareTest: RegexTest = async (pattern, sample, client) => {
      clients.push(client);
      if (pattern === BUSY_PATTERN) throw new CheckBusyError(BUSY_MESSAGE, 429, 1);
      return regexTest(pattern, sample);
    };
    let proxied: RequestListener;

    beforeAll(() => {
      proxied = t.registryApp({ env: { TRUST_PROXY: 'true' }, registration: { urlCheck, regexTest: clientAwareTest } }).callback();
    });
    beforeEach(() => {
      clients.length = 0;
    });

    const postAs = (address: string, path: string, payload: unknown) =>
      request(proxied).post(path).set('X-Forwarded-For', `${address}, 10.0.0.1`).send({ apiVersion: '1.0', payload });

    it('hands the pattern check the client address, taken from X-Forwarded-For behind a trusted proxy', async () => {
      const res = await postAs('203.0.113.9', P('validateIdRegexPattern'), { idRegexPattern: '^\\d+$', sampleId: '9606' });
      expect(res.status).toBe(200);
      expect(clients).toEqual(['203.0.113.9']);
    });

    it('answers 429 with Retry-After in the envelope when the requester has too many checks under way', async () => {
      const res = await postAs('203.0.113.9', P('validateIdRegexPattern'), { idRegexPattern: BUSY_PATTERN, sampleId: 'busy1' });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: BUSY_MESSAGE, payload: null });
    });

    it('answers a registration request that meets the cap with 429 and Retry-After, storing nothing', async () => {
      const before = await t.db('prefixRegistrationRequests').count({ n: '*' }).first();
      const res = await postAs('203.0.113.9', P('registerPrefix'), { ...validPrefixRequest, idRegexPattern: BUSY_PATTERN, sampleId: 'busy1' });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({
        apiVersion: '1.0',
        errorMessage: 'Nothing was stored: too many pattern checks from your address are under way (at most 2 at once); please retry when they have been answered',
        payload: null,
      });
      expect(clients).toContain('203.0.113.9');
      expect(await t.db('prefixRegistrationRequests').count({ n: '*' }).first()).toEqual(before);
    });
  });
});

