import type { FetchForCheckResult } from '../../src/lib/http-client.js';
import type { UrlVerdict } from '../../src/queue/url-check.queue.js';

/** Statuses that also count as working for resources behind a login (spec §2.4). */
const PROTECTED_OK = new Set([401, 403, 407, 451]);

/**
 * Spring's `HttpStatus` constant names (the reference prints `HttpStatus.toString()`, i.e. `404 NOT_FOUND`).
 * Where Spring has two names for a code, the one `HttpStatus.valueOf` returns.
 */
const SPRING_STATUS_NAMES: Readonly<Record<number, string>> = {
  100: 'CONTINUE',
  101: 'SWITCHING_PROTOCOLS',
  102: 'PROCESSING',
  103: 'CHECKPOINT',
  200: 'OK',
  201: 'CREATED',
  202: 'ACCEPTED',
  203: 'NON_AUTHORITATIVE_INFORMATION',
  204: 'NO_CONTENT',
  205: 'RESET_CONTENT',
  206: 'PARTIAL_CONTENT',
  207: 'MULTI_STATUS',
  208: 'ALREADY_REPORTED',
  226: 'IM_USED',
  300: 'MULTIPLE_CHOICES',
  301: 'MOVED_PERMANENTLY',
  302: 'FOUND',
  303: 'SEE_OTHER',
  304: 'NOT_MODIFIED',
  305: 'USE_PROXY',
  307: 'TEMPORARY_REDIRECT',
  308: 'PERMANENT_REDIRECT',
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  407: 'PROXY_AUTHENTICATION_REQUIRED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  410: 'GONE',
  411: 'LENGTH_REQUIRED',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'REQUESTED_RANGE_NOT_SATISFIABLE',
  417: 'EXPECTATION_FAILED',
  418: 'I_AM_A_TEAPOT',
  419: 'INSUFFICIENT_SPACE_ON_RESOURCE',
  420: 'METHOD_FAILURE',
  421: 'DESTINATION_LOCKED',
  422: 'UNPROCESSABLE_ENTITY',
  423: 'LOCKED',
  424: 'FAILED_DEPENDENCY',
  425: 'TOO_EARLY',
  426: 'UPGRADE_REQUIRED',
  428: 'PRECONDITION_REQUIRED',
  429: 'TOO_MANY_REQUESTS',
  431: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  451: 'UNAVAILABLE_FOR_LEGAL_REASONS',
  500: 'INTERNAL_SERVER_ERROR',
  501: 'NOT_IMPLEMENTED',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
  504: 'GATEWAY_TIMEOUT',
  505: 'HTTP_VERSION_NOT_SUPPORTED',
  506: 'VARIANT_ALSO_NEGOTIATES',
  507: 'INSUFFICIENT_STORAGE',
  508: 'LOOP_DETECTED',
  509: 'BANDWIDTH_LIMIT_EXCEEDED',
  510: 'NOT_EXTENDED',
  511: 'NETWORK_AUTHENTICATION_REQUIRED',
};

/**
 * `404 NOT_FOUND`; a code Spring does not know (Cloudflare's 520-526) is printed alone, where the reference
 * crashed with a 500 (`No matching constant for [520]`).
 */
export function describeStatus(status: number): string {
  const name = SPRING_STATUS_NAMES[status];
  return name ? `${status} ${name}` : `${status}`;
}

export function describeSeconds(ms: number): string {
  const seconds = ms / 1000;
  return Number.isInteger(seconds) ? `${seconds}` : seconds.toFixed(1).replace(/\.0$/, '');
}

/** The verdict of one fetch, with the reference's messages (spec §2.4). `url` is the URL that was asked for. */
export function verdictFor(url: string, isProtected: boolean, result: FetchForCheckResult, timeoutMs: number): UrlVerdict {
  if (result.ok) {
    const { status } = result;
    if (status >= 200 && status < 400) return { ok: true };
    if (isProtected && PROTECTED_OK.has(status)) return { ok: true };
    return { ok: false, message: `Status ${describeStatus(status)} is not acceptable for URL ${url}` };
  }
  const { failure } = result;
  switch (failure.kind) {
    case 'refused':
      return { ok: false, message: `URL ${failure.url} is not allowed: ${failure.reason}` };
    case 'timeout':
      return { ok: false, message: `The server did not answer within ${describeSeconds(timeoutMs)} seconds` };
    case 'connect':
      return { ok: false, message: 'Failed to connect to server' };
    case 'tls':
      return { ok: false, message: 'Failed to connect to server due to SSL error' };
    case 'too-many-redirects':
    case 'error':
      return { ok: false, message: `Error trying to connect to server: ${failure.message}` };
  }
}
