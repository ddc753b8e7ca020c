import request from 'supertest';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';

// The hot path is answered ahead of Koa (src/resolver/front-handler.ts); it must keep what Koa's
// middleware gives every other answer.
describe('the resolver hot path', () => {
  let r: ResolverUnderTest;
  beforeAll(async () => {
    r = await startResolver('resolver_front');
  });
  afterAll(() => r.close());

  it('gives every resolution a request id, keeping a sane one sent by the client', async () => {
    const own = await request(r.app).get('/taxonomy:9606');
    expect(own.headers['x-request-id']).toMatch(/\S+/);
    const given = await request(r.app).get('/taxonomy:9606').set('X-Request-Id', 'trace-7');
    expect(given.headers['x-request-id']).toBe('trace-7');
    const byPrefix = await request(r.app)
      .post('/reverse/byPrefix')
      .set('X-Request-Id', 'trace-8')
      .send({ apiVersion: '1.0', payload: { url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606' } });
    expect(byPrefix.headers['x-request-id']).toBe('trace-8');
  });

  it('answers HEAD like GET, with the length of the body it does not send', async () => {
    const get = await request(r.app).get('/taxonomy:9606');
    const head = await request(r.app).head('/taxonomy:9606');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(get.body))));
    expect(head.text ?? '').toBe('');
  });

  it('answers a single reverse lookup asked with GET with 405 in the envelope', async () => {
    const res = await request(r.app).get('/reverse/byPrefix');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('POST');
    expect(res.body).toEqual({ apiVersion: '1.0', errorMessage: 'Method GET is not allowed on /reverse/byPrefix; use POST', payload: null });
  });

  it('answers the body errors of the reverse lookups in the envelope', async () => {
    const wrongType = await request(r.app).post('/reverse/byPrefix').set('Content-Type', 'text/plain').send('url=x');
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.errorMessage).toMatch(/application\/json/);
    const tooBig = await request(r.app).post('/reverse/bySimilarity').set('Content-Type', 'application/json').send(JSON.stringify({ x: 'a'.repeat(70 * 1024) }));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toEqual({ apiVersion: '1.0', errorMessage: 'Request body is larger than the limit of 64 KiB', payload: null });
  });

  it('leaves the root and unknown methods to the application, which answers in the envelope', async () => {
    const root = await request(r.app).get('/');
    expect(root.status).toBe(404);
    expect(root.body.errorMessage).toBe('No such endpoint: GET /');
    // Issue 9 item 5: a compact identifier asked with a method it does not serve is 405 (it was 404).
    const put = await request(r.app).put('/taxonomy:9606');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('HEAD, GET');
    expect(put.body.apiVersion).toBe('1.0');
  });
});
