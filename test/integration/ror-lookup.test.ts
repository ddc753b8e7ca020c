/**
 * The institution lookup by ROR id: the registry's own institutions first, then the ROR API (v2) at
 * ROR_API_URL, here a loopback fixture standing in for ROR (tests never reach the real one), reached
 * through the guarded fetcher only with URL_CHECK_ALLOW_PRIVATE_NETWORKS. Through
 * /rorIdApi/getInstitutionForRorId and through the request form's lookup button without JavaScript.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import request from 'supertest';
import { startStack, type AreaStack } from '../support/areas.js';
import { regexpChecks } from '../support/stand-in-checks.js';

const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A ROR v2 organization record, as api.ror.org/v2/organizations/{id} answers (the fields the lookup reads, and some it does not). */
const RECORD = {
  id: 'https://ror.org/05abcde12',
  names: [
    { lang: null, types: ['acronym'], value: 'EXI' },
    { lang: 'en', types: ['ror_display', 'label'], value: 'Example Institute of Loopback Studies' },
  ],
  links: [{ type: 'wikipedia', value: 'https://en.wikipedia.org/wiki/Example' }, { type: 'website', value: 'https://exi.example.org' }],
  locations: [{ geonames_id: 2950159, geonames_details: { country_code: 'DE', country_name: 'Germany', name: 'Berlin' } }],
  external_ids: [
    { type: 'isni', all: ['0000 0001 2345 6789'], preferred: null },
    { type: 'wikidata', all: ['Q42', 'Q43'], preferred: 'Q42' },
  ],
  status: 'active',
  types: ['education'],
};

interface RorFixture {
  url: string;
  hits: { path: string; accept: string | undefined }[];
  close: () => Promise<void>;
}

async function startRorFixture(): Promise<RorFixture> {
  const hits: RorFixture['hits'] = [];
  const server = http.createServer((req, res) => {
    hits.push({ path: req.url ?? '', accept: req.headers.accept });
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/v2/organizations/05abcde12') return answer(200, RECORD);
    if (req.url === '/v2/organizations/03fffff50') return answer(500, { errors: ['boom'] });
    answer(404, { errors: [`'${req.url}' not found`] });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v2`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('institution lookup by ROR id', () => {
  let t: AreaStack;
  let ror: RorFixture;
  let app: RequestListener;

  beforeAll(async () => {
    t = await startStack('rorlookup');
    ror = await startRorFixture();
    app = t
      .registryApp({ env: { ROR_API_URL: ror.url, URL_CHECK_ALLOW_PRIVATE_NETWORKS: 'true' }, registration: regexpChecks })
      .callback();
  });

  afterAll(async () => {
    await ror.close();
    await t.close();
  });

  beforeEach(() => {
    ror.hits.length = 0;
  });

  const lookUp = (rorId: string, on = app) => request(on).post('/rorIdApi/getInstitutionForRorId').send({ apiVersion: '1.0', payload: { rorId } });

  it("answers the registry's own institution without asking ROR", async () => {
    const res = await lookUp('https://ror.org/02catss52');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'European Bioinformatics Institute', rorId: 'https://ror.org/02catss52' });
    expect(ror.hits).toEqual([]);
  });

  it('asks ROR for an id the registry lacks and answers as the reference builds it', async () => {
    const res = await lookUp('https://ror.org/05abcde12');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: 0,
      name: 'Example Institute of Loopback Studies',
      homeUrl: 'https://exi.example.org',
      description:
        "Organization information obtained from ROR API using ROR ID 'https://ror.org/05abcde12' with Wikidata IDs [Q42, Q43], and ISNI IDs [0000 0001 2345 6789]",
      rorId: null,
      location: { countryCode: 'DE', countryName: 'Germany' },
    });
    expect(ror.hits).toEqual([{ path: '/v2/organizations/05abcde12', accept: 'application/json' }]);
    const bare = await lookUp('05ABCDE12');
    expect(bare.body).toEqual(res.body);
  });

  it('answers 404 when neither the registry nor ROR knows the id, and does not ask ROR about what is no ROR id', async () => {
    const unknown = await lookUp('04nnnnn00');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ apiVersion: '1.0', errorMessage: "No institution with ROR ID '04nnnnn00' in the registry or at ROR", payload: null });
    ror.hits.length = 0;
    const junk = await lookUp('../../admin?x=1');
    expect(junk.status).toBe(404);
    expect(ror.hits).toEqual([]);
  });

  it('answers 503 with Retry-After when ROR fails, in the reference words', async () => {
    const res = await lookUp('03fffff50');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.body.errorMessage).toBe("Organization information fetch for ROR ID '03fffff50' came back with HTTP STATUS '500'");
  });

  it('keeps the private-address guard: a loopback ROR is refused without URL_CHECK_ALLOW_PRIVATE_NETWORKS', async () => {
    const guarded = t.registryApp({ env: { ROR_API_URL: ror.url }, registration: regexpChecks }).callback();
    const res = await lookUp('05abcde12', guarded);
    expect(res.status).toBe(503);
    expect(res.body.errorMessage).toBe(
      "Organization information fetch for ROR ID '05abcde12' FAILED due to 'the address was refused: it points to a private or loopback address'",
    );
    expect(ror.hits).toEqual([]);
  });

  it('fills the institution fields of the request form from ROR without JavaScript', async () => {
    const page = await request(app).get('/prefixregistrationrequest').set('Accept', HTML);
    const cookie = (page.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
    const res = await request(app)
      .post('/prefixregistrationrequest')
      .set('Accept', HTML)
      .set('Cookie', cookie)
      .type('form')
      .send({ csrf, action: 'ror-lookup', name: 'Kept as typed', institutionRorId: 'https://ror.org/05abcde12' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Filled in from ROR: “Example Institute of Loopback Studies”.');
    expect(res.text).toMatch(/value="Example Institute of Loopback Studies"[^>]*id="f-institutionName"/);
    expect(res.text).toMatch(/value="https:\/\/exi\.example\.org"[^>]*id="f-institutionHomeUrl"/);
    expect(res.text).toMatch(/value="DE"[^>]*id="f-institutionLocation"/);
    expect(res.text).toContain('value="Kept as typed"');
    // A lookup is not a submission: no messages for the fields not filled yet.
    expect(res.text).not.toContain('There is a problem');

    const missing = await request(app)
      .post('/prefixregistrationrequest')
      .set('Accept', HTML)
      .set('Cookie', cookie)
      .type('form')
      .send({ csrf, action: 'ror-lookup', institutionRorId: '04nnnnn00' });
    expect(missing.text).toContain('id="f-institutionRorId-msg" aria-live="polite">No institution has this ROR id, in the registry or at ROR</p>');
  });
});
