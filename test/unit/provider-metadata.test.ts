/**
 * Provider metadata without I/O: what the worker reads from a page's HTML, the status and message of each
 * kind of fetch outcome, and the stored answer's text form that the resolver serves without parsing.
 */
import type { PageFetchResult } from '../../src/lib/http-client.js';
import { decodeMetadataAnswer, encodeMetadataAnswer } from '../../src/queue/metadata.queue.js';
import { extractMetadata, hasMetadata } from '../../workers/metadata/extract-metadata.js';
import { metadataAnswer } from '../../workers/metadata/metadata-answer.js';

const PAGE_URL = 'https://provider.example.org/records/42';
const AT = Date.parse('2026-01-05T10:00:00.000Z');

const fetched = (body: string, extra: { status?: number; contentType?: string } = {}): PageFetchResult => ({
  ok: true,
  status: extra.status ?? 200,
  finalUrl: PAGE_URL,
  headers: { 'content-type': extra.contentType ?? 'text/html; charset=utf-8' },
  body,
  bodyTruncated: false,
  method: 'GET',
  latencyMs: 1,
});
const failed = (failure: Extract<PageFetchResult, { ok: false }>['failure']): PageFetchResult => ({ ok: false, failure, finalUrl: PAGE_URL, method: 'GET', latencyMs: 1 });
const answer = (result: PageFetchResult) => metadataAnswer(PAGE_URL, result, AT, 10_000, extractMetadata);

describe('reading a page', () => {
  it('keeps the JSON-LD blocks that parse, counts the others, and makes image and icon URLs absolute', async () => {
    const html =
      '<html><head><title>Plain title</title>' +
      '<script type="application/ld+json">{"@type":"Dataset","name":"R42"}</script>' +
      '<script type="application/ld+json">{not json</script>' +
      '<meta property="og:image" content="/img/42.png"><link rel="icon" href="/favicon.png">' +
      '</head><body></body></html>';
    const metadata = await extractMetadata(html, PAGE_URL);
    expect(metadata.jsonLd).toEqual([{ '@type': 'Dataset', name: 'R42' }]);
    expect(metadata.jsonLdSkipped).toBe(1);
    expect(metadata.page).toMatchObject({
      title: 'Plain title',
      image: 'https://provider.example.org/img/42.png',
      favicon: 'https://provider.example.org/favicon.png',
    });
  });

  it('finds nothing in a page that says nothing about itself', async () => {
    expect(hasMetadata(await extractMetadata('<html><body>text</body></html>', PAGE_URL))).toBe(false);
  });
});

describe('the answer to a fetch', () => {
  it.each([
    ['a refused address: 422', failed({ kind: 'refused', url: 'http://10.0.0.1/', reason: 'it points to a private or loopback address' }), 422, 'The URL http://10.0.0.1/ is not fetched: it points to a private or loopback address'],
    ['a timeout: 504', failed({ kind: 'timeout' }), 504, `The page at ${PAGE_URL} did not answer within 10 seconds`],
    ['a refused connection: 502', failed({ kind: 'connect', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' }), 502, `The page at ${PAGE_URL} could not be reached: failed to connect to the server`],
    ['a redirect loop: 502', failed({ kind: 'redirect-loop', url: PAGE_URL }), 502, `The page at ${PAGE_URL} redirects in a loop (back to ${PAGE_URL})`],
    ['an error status: 502', fetched('<title>Oops</title>', { status: 500 }), 502, `The page at ${PAGE_URL} answered 500 INTERNAL_SERVER_ERROR`],
    ['a PDF: 404', fetched('%PDF-1.7', { contentType: 'application/pdf' }), 404, `No metadata found for URL ${PAGE_URL}: the page is application/pdf, not HTML`],
    ['an HTML page with nothing: 404', fetched('<html><body>text</body></html>'), 404, `No metadata found for URL ${PAGE_URL}`],
  ])('%s', async (_label, result, status, message) => {
    const stored = await answer(result);
    expect({ status: stored.status, errorMessage: stored.errorMessage }).toEqual({ status, errorMessage: message });
    expect(JSON.parse(stored.payloadJson)).toMatchObject({ metadata: null, url: PAGE_URL, fetchedAt: '2026-01-05T10:00:00.000Z' });
  });

  it('answers 200 with the metadata of a page that has some', async () => {
    const stored = await answer(fetched('<title>Record 42</title>'));
    expect(stored.status).toBe(200);
    expect(stored.errorMessage).toBeNull();
    expect(JSON.parse(stored.payloadJson)).toMatchObject({ metadata: [], page: { title: 'Record 42' }, jsonLdSkipped: 0 });
  });
});

describe('the stored answer', () => {
  it('reads back what was written, line breaks in the payload\'s strings included', () => {
    const stored = { status: 200, fetchedAtMs: AT, errorMessage: null, payloadJson: JSON.stringify({ metadata: [{ name: 'two\nlines' }] }) };
    expect(decodeMetadataAnswer(encodeMetadataAnswer(stored))).toEqual(stored);
    const failure = { status: 502, fetchedAtMs: AT, errorMessage: 'The page at x answered 404 NOT_FOUND', payloadJson: '{"metadata":null}' };
    expect(decodeMetadataAnswer(encodeMetadataAnswer(failure))).toEqual(failure);
  });

  it.each(['', 'OK', '200 1\n', 'abc 1\nnull\n{}', '200 1\n{"no":1}\n{}'])('refuses %j, which is not one', (text) => {
    expect(decodeMetadataAnswer(text)).toBeUndefined();
  });
});
