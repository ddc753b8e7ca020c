/**
 * Reverse lookup (provider URL back to a CURIE) and the two batch endpoints over HTTP, against the sample
 * registry loaded into a real database.
 */
import request from 'supertest';
import { RESOLVER_URL, startResolver, type ResolverUnderTest } from '../support/areas.js';

const MATCH_FIELDS = ['prefix', 'possible_resolver_url', 'possible_resolver_curie', 'lui_pattern_match', 'similarity_score'];
const TAXONOMY_URL = 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606';
const NO_MATCH_URL = 'https://nothing.example.org/records/123';

let r: ResolverUnderTest;
beforeAll(async () => {
  r = await startResolver('resolver_reverse_batch');
});
afterAll(() => r.close());

const post = (path: string, body: unknown) => request(r.app).post(path).set('Content-Type', 'application/json').send(JSON.stringify(body));
const byPrefix = (payload: unknown) => post('/reverse/byPrefix', { apiVersion: '1.0', payload });
const bySimilarity = (payload: unknown) => post('/reverse/bySimilarity', { apiVersion: '1.0', payload });
const errorEnvelope = (errorMessage: string) => ({ apiVersion: '1.0', errorMessage, payload: null });
const curieMatch = (prefix: string, curie: string) => ({
  prefix,
  possible_resolver_url: `${RESOLVER_URL}/${curie}`,
  possible_resolver_curie: curie,
  lui_pattern_match: true,
  similarity_score: 100,
});

describe('POST /reverse/byPrefix', () => {
  it('answers a provider URL with 200 and the match, fields in the wire order', async () => {
    const res = await byPrefix({ url: TAXONOMY_URL });

    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(res.text) as { payload: object };
    expect(Object.keys(body)).toEqual(['apiVersion', 'errorMessage', 'payload']);
    expect(Object.keys(body.payload)).toEqual(MATCH_FIELDS);
    expect(body).toEqual({ apiVersion: '1.0', errorMessage: null, payload: curieMatch('taxonomy', 'taxonomy:9606') });
  });

  it('answers a URL no provider has with 204 and an empty body', async () => {
    const res = await byPrefix({ url: NO_MATCH_URL });

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });

  it('gives the embedded ChEBI identifier for a ChEBI provider URL', async () => {
    const res = await byPrefix({ url: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927' });

    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual(curieMatch('chebi', 'CHEBI:36927'));
  });

  it('finds the LRG id in a URL with text after the id (.../LRG_1.xml)', async () => {
    const res = await byPrefix({ url: 'http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml' });

    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({ prefix: 'lrg', possible_resolver_curie: 'lrg:LRG_1', lui_pattern_match: true });
  });

  it.each([
    'https://www.ncbi.nlm.nih.gov/gene/100010',
    'http://www.ncbi.nlm.nih.gov/gene/100010',
    'https://ncbi.nlm.nih.gov/gene/100010',
    'http://ncbi.nlm.nih.gov/gene/100010/',
  ])('ignores the scheme, www. and a trailing slash: %s', async (url) => {
    const res = await byPrefix({ url });

    expect(res.status).toBe(200);
    expect(res.body.payload).toEqual(curieMatch('ncbigene', 'ncbigene:100010'));
  });

  it('uses an accession given explicitly', async () => {
    const res = await byPrefix({ url: 'http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml', accession: 'LRG_1' });

    expect(res.status).toBe(200);
    expect(res.body.payload).toMatchObject({ prefix: 'lrg', possible_resolver_curie: 'lrg:LRG_1', lui_pattern_match: true });
  });
});

describe('POST /reverse/bySimilarity', () => {
  it('returns at most 5 matches, the exact one first with a score of 100', async () => {
    const res = await bySimilarity({ url: 'https://www.ncbi.nlm.nih.gov/gene/100010' });

    expect(res.status).toBe(200);
    const matches = res.body.payload as Record<string, unknown>[];
    expect(Array.isArray(matches)).toBe(true);
    expect(matches.length).toBeGreaterThan(0);
    expect(matches.length).toBeLessThanOrEqual(5);
    expect(matches[0]).toEqual(curieMatch('ncbigene', 'ncbigene:100010'));
    for (const match of matches) {
      expect(Object.keys(match)).toEqual(MATCH_FIELDS);
      expect(typeof match.similarity_score).toBe('number');
      expect(match.similarity_score).toBeGreaterThanOrEqual(0);
      expect(match.similarity_score).toBeLessThanOrEqual(100);
    }
    const scores = matches.map((m) => m.similarity_score as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('answers 204 with an empty body when no accession can be found in the URL', async () => {
    const res = await bySimilarity({ url: 'httpnothing' });

    expect(res.status).toBe(204);
    expect(res.text).toBe('');
  });
});

describe('reverse lookup request errors', () => {
  it.each([
    ['/reverse/byPrefix', 'Invalid payload, HTTP url must be provided'],
    ['/reverse/bySimilarity', 'Invalid payload, url must be provided'],
  ])('%s answers 400 with the reference message for a missing payload, a blank url and a non-http url', async (path, message) => {
    for (const body of [
      { apiVersion: '1.0' },
      { apiVersion: '1.0', payload: null },
      { apiVersion: '1.0', payload: {} },
      { apiVersion: '1.0', payload: { url: '   ' } },
      { apiVersion: '1.0', payload: { url: 'ftp://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml' } },
    ]) {
      const res = await post(path, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body).toEqual(errorEnvelope(message));
    }
  });

  it.each(['/reverse/byPrefix', '/reverse/bySimilarity'])('%s answers malformed JSON with 400 in the envelope', async (path) => {
    const res = await request(r.app).post(path).set('Content-Type', 'application/json').send('{"apiVersion": "1.0", "payload": {');

    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['apiVersion', 'errorMessage', 'payload']);
    expect(res.body.errorMessage).toMatch(/^Malformed JSON in request body/);
    expect(res.body.payload).toBeNull();
  });

  it.each(['/reverse/byPrefix', '/reverse/bySimilarity'])('%s refuses a body over 64 KiB with 413', async (path) => {
    const res = await post(path, { apiVersion: '1.0', payload: { url: `https://example.org/${'a'.repeat(70 * 1024)}` } });

    expect(res.status).toBe(413);
    expect(res.body).toEqual(errorEnvelope('Request body is larger than the limit of 64 KiB'));
  });
});

describe('POST /resolve/batch', () => {
  const batch = (compactIdentifiers: unknown[]) => post('/resolve/batch', { apiVersion: '1.0', payload: { compactIdentifiers } });

  it('answers each item, in input order, exactly as the single GET does', async () => {
    const items = ['taxonomy:9606', 'foo:bar', 'NCBI/taxonomy:9606', 'CHEBI:36927', 'taxonomy'];

    const res = await batch(items);

    expect(res.status).toBe(200);
    expect(res.body.errorMessage).toBeNull();
    const results = res.body.payload.results as Record<string, unknown>[];
    expect(results.map((x) => x.compactIdentifier)).toEqual(items);
    expect(results.map((x) => x.status)).toEqual([200, 400, 404, 200, 200]);
    for (const [position, item] of items.entries()) {
      const single = await request(r.app).get(`/${item}`);
      const result = results[position]!;
      expect(Object.keys(result)).toEqual(['compactIdentifier', 'status', 'errorMessage', 'resolvedResources', 'parsedCompactIdentifier']);
      expect(result).toEqual({
        compactIdentifier: item,
        status: single.status,
        errorMessage: single.body.errorMessage,
        resolvedResources: single.body.payload.resolvedResources,
        parsedCompactIdentifier: single.body.payload.parsedCompactIdentifier,
      });
    }
  });

  it('refuses 1,001 items with 400 naming the limit of 1000', async () => {
    const res = await batch(Array.from({ length: 1001 }, (_, i) => `taxonomy:${i}`));

    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toContain('1000');
    expect(res.body.payload).toBeNull();
  });

  it('accepts exactly 1000 items', async () => {
    const res = await batch(Array.from({ length: 1000 }, (_, i) => `taxonomy:${i}`));

    expect(res.status).toBe(200);
    expect(res.body.payload.results).toHaveLength(1000);
  });

  it('answers an item that is not a string with a 400 for that item only', async () => {
    const res = await batch(['taxonomy:9606', 42, null, { prefix: 'taxonomy' }]);

    expect(res.status).toBe(200);
    const results = res.body.payload.results as Record<string, unknown>[];
    expect(results.map((x) => x.status)).toEqual([200, 400, 400, 400]);
    for (const result of results.slice(1)) {
      expect(result).toMatchObject({ status: 400, resolvedResources: null, parsedCompactIdentifier: null });
      expect(result.errorMessage).toEqual(expect.any(String));
    }
    expect(results[1]!.errorMessage).toContain('compactIdentifiers[1]');
  });

  it('answers a body without the list with 400', async () => {
    const res = await post('/resolve/batch', { apiVersion: '1.0', payload: {} });

    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toContain('compactIdentifiers');
  });
});

describe('POST /reverse/batch', () => {
  const batch = (requests: unknown[]) => post('/reverse/batch', { apiVersion: '1.0', payload: { requests } });

  it('answers each URL, in input order, with the status and match the single byPrefix call gives', async () => {
    const requests = [
      { url: TAXONOMY_URL },
      { url: NO_MATCH_URL },
      { url: 'ftp://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml' },
      { url: 'http://ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml', accession: 'LRG_1' },
      { url: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927' },
    ];

    const res = await batch(requests);

    expect(res.status).toBe(200);
    const results = res.body.payload.results as { status: number; match: unknown; errorMessage: string | null }[];
    expect(results.map((x) => x.status)).toEqual([200, 204, 400, 200, 200]);
    for (const [position, item] of requests.entries()) {
      const single = await byPrefix(item);
      const result = results[position]!;
      expect(result.status).toBe(single.status);
      expect(result.match).toEqual(single.status === 200 ? single.body.payload : null);
      if (single.status === 400) expect(result.errorMessage).toContain(single.body.errorMessage);
      else expect(result.errorMessage).toBeNull();
    }
  });

  it('refuses more than 1000 requests with 400 naming the limit', async () => {
    const res = await batch(Array.from({ length: 1001 }, () => ({ url: TAXONOMY_URL })));

    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toContain('1000');
  });
});
