import type { IncomingHttpHeaders } from 'node:http';
import type { LinkCheckOutcome } from '../db/tables.js';
import type { LinkFetchResult } from '../lib/http-client.js';

/** What is stored of one check besides the resource, URL and time. */
export interface ClassifiedCheck {
  outcome: LinkCheckOutcome;
  httpStatus: number | null;
  finalUrl: string | null;
  latencyMs: number | null;
  /** What the class does not say: the error code, the challenge marker, the hop that looped. */
  detail: string | null;
}

/** A Retry-After longer than this is not waited for: the answer is the check's result. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Marks of the bot-protection pages that stand in for a provider's page (Cloudflare, Akamai, Imperva,
 * DDoS-Guard, Sucuri, PerimeterX, AWS WAF). Such an answer says nothing about whether the provider works for
 * a person, so it is counted neither way. Lower case, looked for in the lower-cased start of the body.
 */
const CHALLENGE_MARKS = [
  'challenge-platform',
  'cf-chl-',
  '<title>just a moment...</title>',
  'attention required! | cloudflare',
  'checking your browser before accessing',
  '_incapsula_resource',
  'ddos-guard',
  'sucuri website firewall',
  'px-captcha',
  'awswafintegration',
  'g-recaptcha',
  'h-captcha',
];

const BLOCKING_STATUSES = new Set([403, 429, 503]);

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The challenge marker of a bot-blocking answer, or null. */
export function challengeMark(headers: IncomingHttpHeaders, body: string): string | null {
  const mitigated = header(headers, 'cf-mitigated');
  if (mitigated) return `cf-mitigated: ${mitigated}`;
  const wafAction = header(headers, 'x-amzn-waf-action');
  if (wafAction) return `x-amzn-waf-action: ${wafAction}`;
  const text = body.toLowerCase();
  const mark = CHALLENGE_MARKS.find((m) => text.includes(m));
  return mark === undefined ? null : `challenge page (${mark})`;
}

/**
 * Milliseconds a Retry-After header asks for (seconds or an HTTP date), or null when there is none or it is
 * unreadable. `now` is for the date form.
 */
export function retryAfterMs(headers: IncomingHttpHeaders, now: number = Date.now()): number | null {
  const value = header(headers, 'retry-after')?.trim();
  if (!value) return null;
  if (/^\d{1,9}$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * Whether a HEAD answer settles the check. Only a success does: servers that refuse HEAD answer 405 or 501,
 * and many answer HEAD with 403, 404 or 500 while the GET works, so anything else is asked again with GET.
 * A failure to connect at all (DNS, refused, TLS, a loop, an address the guard refuses) would be the same for
 * GET; a timeout might not (some servers never answer HEAD).
 */
export function headSettles(result: LinkFetchResult): boolean {
  if (result.ok) return result.status >= 200 && result.status < 300;
  return result.failure.kind !== 'timeout' && result.failure.kind !== 'error';
}

/** The Retry-After of an answer that asks to come back later (429 or 503), when it asks for at most MAX_RETRY_AFTER_MS. */
export function honouredRetryAfter(result: LinkFetchResult, now: number = Date.now()): number | null {
  if (!result.ok || (result.status !== 429 && result.status !== 503)) return null;
  const wait = retryAfterMs(result.headers, now);
  return wait !== null && wait <= MAX_RETRY_AFTER_MS ? wait : null;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'ESERVFAIL']);

/**
 * The outcome class of a check's final request (issue 12): `up` for 2xx and 3xx, `protected` for 401/403 on a
 * resource with protectedUrls (counted as up), `bot_blocked` for 403/429/503 carrying a challenge, `not_found`
 * for 404/410, `http_error` for any other 4xx/5xx, and the classes of a request that got no answer.
 */
export function classifyCheck(result: LinkFetchResult, isProtected: boolean): ClassifiedCheck {
  const base = { latencyMs: result.latencyMs, finalUrl: result.finalUrl };
  if (result.ok) {
    const { status } = result;
    const answered = { ...base, httpStatus: status };
    if (status >= 200 && status < 400) return { ...answered, outcome: 'up', detail: null };
    if (isProtected && (status === 401 || status === 403)) return { ...answered, outcome: 'protected', detail: null };
    if (BLOCKING_STATUSES.has(status)) {
      const mark = challengeMark(result.headers, result.body);
      if (mark) return { ...answered, outcome: 'bot_blocked', detail: mark };
    }
    if (status === 404 || status === 410) return { ...answered, outcome: 'not_found', detail: null };
    return { ...answered, outcome: 'http_error', detail: status >= 400 ? null : `status ${status}` };
  }
  const failed = { ...base, httpStatus: null };
  const { failure } = result;
  switch (failure.kind) {
    case 'timeout':
      return { ...failed, outcome: 'timeout', detail: null };
    case 'connect':
      return { ...failed, outcome: failure.code && DNS_CODES.has(failure.code) ? 'dns' : 'refused', detail: failure.code ?? failure.message };
    case 'tls':
      return { ...failed, outcome: 'tls', detail: failure.code ?? failure.message };
    case 'redirect-loop':
      return { ...failed, outcome: 'redirect_loop', detail: `back to ${failure.url}` };
    case 'too-many-redirects':
      return { ...failed, outcome: 'redirect_loop', detail: failure.message };
    case 'refused':
      // The safe fetcher would not go there (a private address, another scheme): not the provider's failure.
      return { ...failed, outcome: 'skipped', detail: `${failure.url}: ${failure.reason}` };
    case 'error':
      // A connection dropped mid-answer is the server refusing us; anything else is a broken answer.
      if (failure.code === 'ECONNRESET' || failure.code === 'EPIPE') return { ...failed, outcome: 'refused', detail: failure.code };
      return { ...failed, outcome: 'http_error', detail: failure.code ? `${failure.code}: ${failure.message}` : failure.message };
  }
}

/** A check that was not made: no URL could be built, or there is none. */
export function skippedCheck(reason: string): ClassifiedCheck {
  return { outcome: 'skipped', httpStatus: null, finalUrl: null, latencyMs: null, detail: reason };
}
