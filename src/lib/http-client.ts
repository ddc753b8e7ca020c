import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Got, PlainResponse } from 'got';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { loadOnFirstUse } from './warm-up.js';

// got (with its dependencies) takes 100 ms and more to load: loaded by the first request made, or at a serving
// process's warm-up, never by the tests and tools that import this module for its rules and make no request.
const loadGot = loadOnFirstUse(async (): Promise<Got> => (await import('got')).default);

/**
 * The one module of the service that makes outbound HTTP requests (and the only importer of got).
 *
 * Every URL fetched here comes from a user, so the guard against server-side request forgery is not optional:
 * only http and https, no credentials in URLs, and no connection to a loopback, private, link-local,
 * unique-local, multicast, unspecified, carrier-grade NAT, reserved or cloud-metadata address. The address
 * check is request-filtering-agent's (ipaddr.js ranges): its agents validate the address a socket is about to
 * connect to, after DNS resolution and on every redirect hop, so neither numeric host spellings
 * (`2130706433`, `0x7f.1`, `[::ffff:7f00:1]`) nor DNS rebinding get past it. The URL rules are checked here
 * before the first request and on every redirect target.
 */

export const MAX_URL_LENGTH = 2048;
/** Requests in flight to one host from this process, whatever the worker concurrency. */
export const MAX_REQUESTS_PER_HOST = 2;
/** Accept header of a browser navigation: some servers answer 406 or 404 to anything else. */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

export const refusalReasons = {
  invalid: 'it is not a valid URL',
  tooLong: `it is longer than ${MAX_URL_LENGTH} characters`,
  scheme: 'only http and https URLs are checked',
  credentials: 'credentials in URLs are not allowed',
  address: 'it points to a private or loopback address',
} as const;

export interface FetchForCheckOptions {
  /** URL_CHECK_ALLOW_PRIVATE_NETWORKS: also reach loopback and private networks (never 0.0.0.0 / `::`). */
  allowPrivateNetworks: boolean;
  /** Total time for every hop and the body read. */
  timeoutMs: number;
  maxRedirects: number;
  /** The body is read up to this many bytes, then the connection is dropped. */
  maxBodyBytes: number;
  userAgent: string;
  /**
   * Tests only: resolve host names with this instead of the system resolver, so that a test can make a name
   * answer a private address without any DNS and check that nothing connects to it.
   */
  dnsLookup?: LookupFunction;
  /**
   * Tests only: exact addresses let through while the switch is off (request-filtering-agent's
   * allowIPAddressList). The SSRF tests allow one loopback address (127.0.0.2) as a stand-in for a public
   * server, so that a redirect from it to 127.0.0.1 shows the check on the redirect hop; never set by the service.
   */
  allowedAddresses?: readonly string[];
}

export type FetchFailure =
  /** Refused before or instead of connecting; `url` is the URL refused (a redirect target, possibly). */
  | { kind: 'refused'; url: string; reason: string }
  | { kind: 'timeout' }
  | { kind: 'connect'; message: string; code?: string }
  | { kind: 'tls'; message: string; code?: string }
  | { kind: 'too-many-redirects'; message: string }
  | { kind: 'error'; message: string; code?: string };

export type FetchForCheckResult =
  | { ok: true; status: number; finalUrl: string; bodyBytes: number; bodyTruncated: boolean }
  | { ok: false; failure: FetchFailure };

/** The URL rules (everything but the address, which only the connecting agent knows): null when allowed. */
export function urlRefusal(url: string): string | null {
  if (url.length > MAX_URL_LENGTH) return refusalReasons.tooLong;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refusalReasons.invalid;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return refusalReasons.scheme;
  if (parsed.username !== '' || parsed.password !== '') return refusalReasons.credentials;
  if (parsed.hostname === '') return refusalReasons.invalid;
  return null;
}

// One pair of agents per guard setting, for the life of the process. No keep-alive, so that every request
// opens (and validates) its own connection; no maxSockets, since a request queued in an http.Agent is later
// given a socket made with the options of the one that closed (its lookup included): the per-host limit is
// kept by acquireHost below instead.
const agentPairs = new Map<string, { http: RequestFilteringHttpAgent; https: RequestFilteringHttpsAgent }>();

function agentsFor(allowPrivateNetworks: boolean, allowedAddresses: readonly string[]) {
  const key = JSON.stringify([allowPrivateNetworks, allowedAddresses]);
  let pair = agentPairs.get(key);
  if (!pair) {
    const options = {
      keepAlive: false,
      allowPrivateIPAddress: allowPrivateNetworks,
      // 0.0.0.0 and :: reach the local machine on most systems: refused even with the switch on.
      allowMetaIPAddress: false,
      allowIPAddressList: [...allowedAddresses],
    };
    pair = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
    agentPairs.set(key, pair);
  }
  return pair;
}

const hostSlots = new Map<string, { active: number; waiting: (() => void)[] }>();

/**
 * Waits for one of the MAX_REQUESTS_PER_HOST places of `host` in this process and returns its release
 * (safe to call twice). A fetch holds one place at a time, of the host of its current hop, so that two
 * fetches redirecting into each other's hosts cannot deadlock.
 */
async function acquireHost(host: string): Promise<() => void> {
  let slot = hostSlots.get(host);
  if (!slot) {
    slot = { active: 0, waiting: [] };
    hostSlots.set(host, slot);
  }
  if (slot.active >= MAX_REQUESTS_PER_HOST) {
    const queued = slot;
    // The releasing fetch hands its place over, so `active` does not change.
    await new Promise<void>((resolve) => queued.waiting.push(resolve));
  } else {
    slot.active += 1;
  }
  const held = slot;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = held.waiting.shift();
    if (next) {
      next();
    } else {
      held.active -= 1;
      if (held.active === 0) hostSlots.delete(host);
    }
  };
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'ENONET']);
const TLS_CODES = new Set([
  'EPROTO',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorChain(error: unknown): { code?: unknown; message?: unknown }[] {
  const chain: { code?: unknown; message?: unknown }[] = [];
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && chain.length < 5) {
    chain.push(current as { code?: unknown; message?: unknown });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/**
 * request-filtering-agent reports a refused address with a plain Error whose message says
 * `... is not allowed. Because, It is private IP address.` (or meta, or on the deny list); it has no code.
 */
function isAddressRefusal(error: unknown): boolean {
  return errorChain(error).some((e) => typeof e.message === 'string' && /\bis not allowed\. Because/.test(e.message));
}

function classifyError(error: unknown, currentUrl: string): FetchFailure {
  if (isAddressRefusal(error)) return { kind: 'refused', url: currentUrl, reason: refusalReasons.address };
  const chain = errorChain(error);
  const codes = chain.map((e) => (typeof e.code === 'string' ? e.code : '')).filter(Boolean);
  const message = chain.map((e) => (typeof e.message === 'string' ? e.message : '')).find(Boolean) ?? String(error);
  if (codes.includes('ETIMEDOUT')) return { kind: 'timeout' };
  if (codes.includes('ERR_TOO_MANY_REDIRECTS')) return { kind: 'too-many-redirects', message: 'Too many redirects' };
  const connectCode = codes.find((c) => CONNECT_CODES.has(c));
  if (connectCode) return { kind: 'connect', message, code: connectCode };
  const tlsCode = codes.find((c) => TLS_CODES.has(c) || c.startsWith('ERR_SSL_') || c.startsWith('ERR_TLS_'));
  if (tlsCode) return { kind: 'tls', message, code: tlsCode };
  return codes[0] === undefined ? { kind: 'error', message } : { kind: 'error', message, code: codes[0] };
}

/** The statuses got follows, when they carry a Location. */
const REDIRECT_STATUSES = new Set([300, 301, 302, 303, 304, 307, 308]);

function isRedirect(response: PlainResponse): boolean {
  return response.headers.location !== undefined && REDIRECT_STATUSES.has(response.statusCode);
}

/** One request of a check, as fetchOnce makes it. */
interface CheckRequest {
  method: 'GET' | 'HEAD';
  /** Keep the body read (up to maxBodyBytes) as text, for a look at what the page says. */
  keepBody: boolean;
  /** A redirect back to a URL already visited ends the request as a loop instead of going round to the hop limit. */
  detectLoops: boolean;
  /** The Accept header; a browser navigation's by default. */
  accept?: string;
}

type CheckOutcome =
  | { ok: true; status: number; finalUrl: string; headers: IncomingHttpHeaders; body: string; bodyBytes: number; bodyTruncated: boolean }
  | { ok: false; failure: FetchFailure | RedirectLoop; finalUrl: string };

/** A redirect to a URL the request had already been at. */
export interface RedirectLoop {
  kind: 'redirect-loop';
  url: string;
}

/**
 * GETs `url` for a liveness check: follows at most `maxRedirects` redirects (each target checked against the
 * URL rules, each connection against the address guard), reads at most `maxBodyBytes` of the body, and
 * settles within `timeoutMs` in total. Never throws: every failure is a typed result.
 */
export async function fetchForCheck(url: string, options: FetchForCheckOptions): Promise<FetchForCheckResult> {
  const outcome = await guardedRequest(url, options, { method: 'GET', keepBody: false, detectLoops: false });
  if (!outcome.ok) return { ok: false, failure: outcome.failure as FetchFailure };
  const { status, finalUrl, bodyBytes, bodyTruncated } = outcome;
  return { ok: true, status, finalUrl, bodyBytes, bodyTruncated };
}

/** What one request of a link check found. */
export type LinkFetchResult = (
  | {
      ok: true;
      status: number;
      finalUrl: string;
      headers: IncomingHttpHeaders;
      /** The first `maxBodyBytes` of the body as text (empty for HEAD). */
      body: string;
      bodyTruncated: boolean;
    }
  | { ok: false; failure: FetchFailure | RedirectLoop; finalUrl: string }
) & { method: 'GET' | 'HEAD'; latencyMs: number };

/**
 * One request of a provider link check (the link-check worker): HEAD or GET as `method` says, with the same
 * guard, limits and per-process host places as fetchForCheck; it keeps the answer's headers and the start of
 * its body (a bot challenge page is recognised by them) and ends a redirect loop at its first repeat. The
 * caller decides whether a HEAD answer settles the check, and spaces its requests to a host.
 */
export async function fetchForLinkCheck(url: string, method: 'GET' | 'HEAD', options: FetchForCheckOptions): Promise<LinkFetchResult> {
  const started = performance.now();
  const outcome = await guardedRequest(url, options, { method, keepBody: method === 'GET', detectLoops: true });
  const latencyMs = Math.round(performance.now() - started);
  if (!outcome.ok) return { ok: false, failure: outcome.failure, finalUrl: outcome.finalUrl, method, latencyMs };
  const { status, finalUrl, headers, body, bodyTruncated } = outcome;
  return { ok: true, status, finalUrl, headers, body, bodyTruncated, method, latencyMs };
}

/** What a fetch of a page for its metadata found: fetchForLinkCheck's GET answer. */
export type PageFetchResult = LinkFetchResult;

/**
 * GETs a page to read its metadata (the metadata worker): the guard, the limits and the per-process host
 * places of the other fetchers; keeps the answer's headers (its content type) and the first `maxBodyBytes`
 * of its body as text, and ends a redirect loop at its first repeat.
 */
export function fetchPage(url: string, options: FetchForCheckOptions): Promise<PageFetchResult> {
  return fetchForLinkCheck(url, 'GET', options);
}

async function guardedRequest(url: string, options: FetchForCheckOptions, request: CheckRequest): Promise<CheckOutcome> {
  const refusal = urlRefusal(url);
  if (refusal) return { ok: false, failure: { kind: 'refused', url, reason: refusal }, finalUrl: url };
  const got = await loadGot();
  // The clock starts once the first host has a place: waiting behind other checks of it is not the server's fault.
  const release = await acquireHost(new URL(url).host.toLowerCase());
  try {
    return await fetchOnce(got, url, options, request, release);
  } catch (error) {
    // got refusing its options synchronously; never expected, still a result rather than a throw.
    release();
    return { ok: false, failure: { kind: 'error', message: error instanceof Error ? error.message : String(error) }, finalUrl: url };
  }
}

function fetchOnce(got: Got, url: string, options: FetchForCheckOptions, request: CheckRequest, releaseFirstHost: () => void): Promise<CheckOutcome> {
  return new Promise((resolve) => {
    let currentUrl = url;
    let refusedRedirect: FetchFailure | RedirectLoop | undefined;
    let settled = false;
    let releaseHost = releaseFirstHost;
    const visited = new Set([url]);

    const judgedRedirects = new WeakMap<PlainResponse, boolean>();
    /** Whether to follow a redirect: its target must pass the URL rules (and not be a repeat, for a loop). */
    const judgeRedirect = (response: PlainResponse): boolean => {
      const location = response.headers.location ?? '';
      let target: string;
      try {
        target = new URL(location, response.url).toString();
      } catch {
        refusedRedirect = { kind: 'refused', url: location, reason: refusalReasons.invalid };
        return false;
      }
      const reason = urlRefusal(target);
      if (reason) {
        refusedRedirect = { kind: 'refused', url: target, reason };
        return false;
      }
      if (request.detectLoops && visited.has(target)) {
        refusedRedirect = { kind: 'redirect-loop', url: target };
        return false;
      }
      visited.add(target);
      currentUrl = target;
      return true;
    };

    const stream = got.stream(url, {
      method: request.method,
      headers: { accept: request.accept ?? BROWSER_ACCEPT, 'user-agent': options.userAgent },
      agent: agentsFor(options.allowPrivateNetworks, options.allowedAddresses ?? []),
      http2: false,
      dnsLookup: options.dnsLookup,
      // Per hop; the timer below bounds the whole check.
      timeout: { request: options.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      maxRedirects: options.maxRedirects,
      followRedirect: (response: PlainResponse) => {
        // got also asks this of answers that are not redirects (to judge their status), and may ask twice of
        // one redirect: each answer is judged once.
        if (!isRedirect(response)) return true;
        const judged = judgedRedirects.get(response);
        if (judged !== undefined) return judged;
        const follow = judgeRedirect(response);
        judgedRedirects.set(response, follow);
        return follow;
      },
      hooks: {
        beforeRedirect: [
          async (next) => {
            releaseHost();
            const release = await acquireHost(new URL(String(next.url)).host.toLowerCase());
            // The check may have timed out meanwhile; then the place goes straight back.
            if (settled) release();
            releaseHost = release;
          },
        ],
      },
    });

    const settle = (result: CheckOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      releaseHost();
      resolve(result);
      // Late errors of a dropped connection are of no interest once the verdict is known.
      stream.on('error', () => undefined);
      stream.destroy();
    };

    const timer = setTimeout(() => settle({ ok: false, failure: { kind: 'timeout' }, finalUrl: currentUrl }), options.timeoutMs);

    stream.on('error', (error: unknown) => settle({ ok: false, failure: classifyError(error, currentUrl), finalUrl: currentUrl }));
    stream.on('response', (response: PlainResponse) => {
      if (refusedRedirect) {
        settle({ ok: false, failure: refusedRedirect, finalUrl: currentUrl });
        return;
      }
      let bodyBytes = 0;
      const kept: Buffer[] = [];
      const finish = (bodyTruncated: boolean) => {
        const body = request.keepBody ? Buffer.concat(kept).subarray(0, options.maxBodyBytes).toString('utf8') : '';
        settle({ ok: true, status: response.statusCode, finalUrl: response.url, headers: response.headers, body, bodyBytes, bodyTruncated });
      };
      stream.on('data', (chunk: Buffer) => {
        bodyBytes += chunk.length;
        if (request.keepBody && bodyBytes - chunk.length < options.maxBodyBytes) kept.push(chunk);
        if (bodyBytes > options.maxBodyBytes) finish(true);
      });
      stream.on('end', () => finish(false));
    });
  });
}

export type FetchJsonOptions = FetchForCheckOptions;

export type FetchJsonResult = { ok: true; status: number; json: unknown } | { ok: false; failure: FetchFailure };

/**
 * GETs a JSON document from an API the operator configured (the ROR API), with every guard of
 * fetchForCheck. A non-2xx answer is a result with its status (and the body, when it is JSON); a body over
 * maxBodyBytes or one that is not JSON is a failure.
 */
export async function fetchJson(url: string, options: FetchJsonOptions): Promise<FetchJsonResult> {
  const result = await guardedRequest(url, options, { method: 'GET', keepBody: true, detectLoops: false, accept: 'application/json' });
  if (!result.ok) return { ok: false, failure: result.failure as FetchFailure };
  if (result.bodyTruncated) return { ok: false, failure: { kind: 'error', message: `The answer is larger than ${options.maxBodyBytes} bytes` } };
  try {
    return { ok: true, status: result.status, json: result.body.trim() === '' ? null : (JSON.parse(result.body) as unknown) };
  } catch {
    if (result.status < 200 || result.status > 299) return { ok: true, status: result.status, json: null };
    return { ok: false, failure: { kind: 'error', message: 'The answer is not JSON' } };
  }
}

/** A request of the OpenID Connect client library (openid-client's customFetch options). */
export interface IdentityProviderRequest {
  method: string;
  headers: Record<string, string>;
  body?: ArrayBuffer | Uint8Array | string | URLSearchParams | null | unknown;
  signal?: AbortSignal;
}

export interface IdentityProviderFetchOptions {
  timeoutMs: number;
  userAgent: string;
  /** The answer is read up to this many bytes; a larger one is a failure. */
  maxBodyBytes: number;
}

function requestBody(body: IdentityProviderRequest['body']): string | Buffer | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new Error('Unsupported request body for the identity provider');
}

/**
 * The requests of the curators' OpenID Connect sign-in (discovery, token exchange, keys) as a fetch
 * Response, for openid-client. The identity provider is the operator's (OIDC_ISSUER), not a user's URL, and
 * is often on an internal network: the private-address guard of the other fetchers does not apply, but the
 * timeout, the user agent, the body bound and "no redirects" (the library's own rule) do.
 */
export async function fetchFromIdentityProvider(url: string, request: IdentityProviderRequest, options: IdentityProviderFetchOptions): Promise<Response> {
  const got = await loadGot();
  const answer = await got(url, {
    method: request.method as 'GET' | 'POST',
    headers: { 'user-agent': options.userAgent, ...request.headers },
    body: requestBody(request.body),
    followRedirect: false,
    throwHttpErrors: false,
    retry: { limit: 0 },
    timeout: { request: options.timeoutMs },
    responseType: 'buffer',
    signal: request.signal,
  });
  if (answer.rawBody.length > options.maxBodyBytes) throw new Error(`The identity provider's answer is larger than ${options.maxBodyBytes} bytes`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    // got has decompressed the body already.
    if (value === undefined || name === 'content-encoding' || name === 'content-length') continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const empty = answer.statusCode === 204 || answer.statusCode === 304;
  return new Response(empty ? null : new Uint8Array(answer.rawBody), { status: answer.statusCode, headers });
}
