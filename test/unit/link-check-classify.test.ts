import type { IncomingHttpHeaders } from 'node:http';
import { buildSampleUrl } from '../../src/core/url-pattern.js';
import { formatDuration, parseDuration } from '../../src/lib/duration.js';
import type { FetchFailure, LinkFetchResult, RedirectLoop } from '../../src/lib/http-client.js';
import { classifyCheck, headSettles, honouredRetryAfter, retryAfterMs } from '../../src/link-check/classify-check.js';
import { runIdForJob } from '../../src/link-check/plan-run.js';
import { formatRunSummary } from '../../src/link-check/run-summary.js';
import { linkCheckJobId } from '../../src/queue/link-check.queue.js';

const URL = 'https://provider.example/items/1';

function answer(status: number, headers: IncomingHttpHeaders = {}, body = '', method: 'GET' | 'HEAD' = 'GET'): LinkFetchResult {
  return { ok: true, status, finalUrl: URL, headers, body, bodyTruncated: false, method, latencyMs: 12 };
}

function failed(failure: FetchFailure | RedirectLoop): LinkFetchResult {
  return { ok: false, failure, finalUrl: URL, method: 'GET', latencyMs: 34 };
}

describe('classifyCheck', () => {
  it.each([
    [200, 'up'],
    [204, 'up'],
    [304, 'up'],
    [404, 'not_found'],
    [410, 'not_found'],
    [400, 'http_error'],
    [401, 'http_error'],
    [403, 'http_error'],
    [429, 'http_error'],
    [500, 'http_error'],
    [503, 'http_error'],
  ])('classes a plain %i as %s', (status, outcome) => {
    expect(classifyCheck(answer(status), false)).toEqual({ outcome, httpStatus: status, finalUrl: URL, latencyMs: 12, detail: null });
  });

  it('counts 401 and 403 on a resource with protectedUrls as protected, and nothing else', () => {
    expect(classifyCheck(answer(401), true).outcome).toBe('protected');
    expect(classifyCheck(answer(403), true).outcome).toBe('protected');
    expect(classifyCheck(answer(404), true).outcome).toBe('not_found');
    expect(classifyCheck(answer(500), true).outcome).toBe('http_error');
  });

  it('classes 403, 429 and 503 carrying a challenge as bot_blocked, with the mark in the detail', () => {
    expect(classifyCheck(answer(403, { 'cf-mitigated': 'challenge' }), false)).toMatchObject({ outcome: 'bot_blocked', detail: 'cf-mitigated: challenge' });
    expect(classifyCheck(answer(503, {}, '<html><head><title>Just a moment...</title>'), false)).toMatchObject({
      outcome: 'bot_blocked',
      detail: 'challenge page (<title>just a moment...</title>)',
    });
    expect(classifyCheck(answer(429, {}, '<div id="px-captcha"></div>'), false).outcome).toBe('bot_blocked');
    expect(classifyCheck(answer(403, { 'x-amzn-waf-action': 'captcha' }), false).outcome).toBe('bot_blocked');
    // Not on other statuses, and not from the word "challenge" in an ordinary page.
    expect(classifyCheck(answer(404, { 'cf-mitigated': 'challenge' }), false).outcome).toBe('not_found');
    expect(classifyCheck(answer(403, {}, '<p>The challenge of protein folding</p>'), false).outcome).toBe('http_error');
  });

  it('classes requests that got no answer', () => {
    expect(classifyCheck(failed({ kind: 'timeout' }), false)).toEqual({ outcome: 'timeout', httpStatus: null, finalUrl: URL, latencyMs: 34, detail: null });
    expect(classifyCheck(failed({ kind: 'connect', message: 'getaddrinfo ENOTFOUND x', code: 'ENOTFOUND' }), false)).toMatchObject({ outcome: 'dns', detail: 'ENOTFOUND' });
    expect(classifyCheck(failed({ kind: 'connect', message: 'x', code: 'EAI_AGAIN' }), false).outcome).toBe('dns');
    expect(classifyCheck(failed({ kind: 'connect', message: 'x', code: 'ECONNREFUSED' }), false)).toMatchObject({ outcome: 'refused', detail: 'ECONNREFUSED' });
    expect(classifyCheck(failed({ kind: 'error', message: 'socket hang up', code: 'ECONNRESET' }), false).outcome).toBe('refused');
    expect(classifyCheck(failed({ kind: 'tls', message: 'expired', code: 'CERT_HAS_EXPIRED' }), false)).toMatchObject({ outcome: 'tls', detail: 'CERT_HAS_EXPIRED' });
    expect(classifyCheck(failed({ kind: 'redirect-loop', url: 'https://provider.example/a' }), false)).toMatchObject({
      outcome: 'redirect_loop',
      detail: 'back to https://provider.example/a',
    });
    expect(classifyCheck(failed({ kind: 'too-many-redirects', message: 'Too many redirects' }), false).outcome).toBe('redirect_loop');
    expect(classifyCheck(failed({ kind: 'refused', url: 'http://10.0.0.1/', reason: 'it points to a private or loopback address' }), false)).toMatchObject({
      outcome: 'skipped',
      detail: 'http://10.0.0.1/: it points to a private or loopback address',
    });
    expect(classifyCheck(failed({ kind: 'error', message: 'Parse Error: Invalid header value char', code: 'HPE_INVALID_HEADER_TOKEN' }), false)).toMatchObject({
      outcome: 'http_error',
      detail: 'HPE_INVALID_HEADER_TOKEN: Parse Error: Invalid header value char',
    });
  });
});

describe('HEAD, then GET', () => {
  it('takes a 2xx HEAD answer, and a failure GET would share; asks again with GET otherwise', () => {
    expect(headSettles(answer(200, {}, '', 'HEAD'))).toBe(true);
    for (const status of [301, 401, 403, 404, 405, 429, 500, 501, 503]) expect([status, headSettles(answer(status, {}, '', 'HEAD'))]).toEqual([status, false]);
    expect(headSettles(failed({ kind: 'connect', message: 'x', code: 'ENOTFOUND' }))).toBe(true);
    expect(headSettles(failed({ kind: 'redirect-loop', url: URL }))).toBe(true);
    expect(headSettles(failed({ kind: 'timeout' }))).toBe(false);
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds and HTTP dates', () => {
    expect(retryAfterMs({ 'retry-after': '5' })).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30_000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeNull();
    expect(retryAfterMs({})).toBeNull();
  });

  it('is honoured on 429 and 503 up to 60 s, and not otherwise', () => {
    expect(honouredRetryAfter(answer(429, { 'retry-after': '60' }), now)).toBe(60_000);
    expect(honouredRetryAfter(answer(503, { 'retry-after': '1' }), now)).toBe(1000);
    expect(honouredRetryAfter(answer(429, { 'retry-after': '61' }), now)).toBeNull();
    expect(honouredRetryAfter(answer(500, { 'retry-after': '1' }), now)).toBeNull();
    expect(honouredRetryAfter(answer(429), now)).toBeNull();
  });
});

describe('what a run is made of', () => {
  it('builds sample URLs as resolution would, embedded prefixes included', () => {
    expect(buildSampleUrl('https://p.example/{$id}', 'B00162', '3dmet', false)).toBe('https://p.example/B00162');
    // Embedded namespaces' sample ids come without the prefix (the pattern carries it) or with it.
    expect(buildSampleUrl('https://www.ebi.ac.uk/ols4/terms?obo_id=BTO:{$id}', '0000146', 'bto', true)).toBe('https://www.ebi.ac.uk/ols4/terms?obo_id=BTO:0000146');
    expect(buildSampleUrl('https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:{$id}', 'CHEBI:36927', 'chebi', true)).toBe(
      'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927',
    );
    expect(buildSampleUrl('https://uniresolver.io/#did:{$id}', 'sov:WRfXPg8dantKVubE3HX8pw', 'did', true)).toBe('https://uniresolver.io/#did:sov:WRfXPg8dantKVubE3HX8pw');
  });

  it('gives jobs and scheduled runs ids BullMQ accepts, the same every time', () => {
    expect(linkCheckJobId('manual-1-abc', 42, 'sample')).toBe('link-check-manual-1-abc-42-sample');
    expect(runIdForJob('repeat:link-check:plan:v1:1764547200000')).toBe('repeat-link-check-plan-v1-1764547200000');
  });

  it('reads durations as settings and arguments write them', () => {
    expect(parseDuration('24h')).toBe(86_400_000);
    expect(parseDuration('90m')).toBe(5_400_000);
    expect(parseDuration('0s')).toBe(0);
    expect(parseDuration('1.5h')).toBeNull();
    expect(formatDuration(86_400_000)).toBe('1d');
    expect(formatDuration(1500)).toBe('1500ms');
    expect(formatDuration(0)).toBe('0ms');
  });

  it('summarises a run: up, down by class, bot-blocked, skipped', () => {
    expect(formatRunSummary({ up: 7, protected: 1, not_found: 2, timeout: 1, bot_blocked: 1, skipped: 1 })).toEqual([
      'class              checks',
      'up                      8   (7 up, 1 protected: behind a login, counted as up)',
      'down                    3',
      '  not_found             2',
      '  http_error            0',
      '  timeout               1',
      '  dns                   0',
      '  tls                   0',
      '  refused               0',
      '  redirect_loop         0',
      'bot_blocked             1   a bot challenge answered: counted neither up nor down',
      'skipped                 1   not checked: no URL, or one the safe fetcher refuses',
      'total                  13',
    ]);
  });
});
