/**
 * For a handler that answers on the bare Node request, ahead of Koa (the resolver's front handler): what
 * the base application's middleware would do, from the same code (CORS, request ids, access lines, the
 * error mapping), without Koa's cost per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../lib/logger.js';
import type { HttpMeter } from '../metrics/http-meter.js';
import { OPEN_CORS_HEADERS } from './cors.js';
import { errorEnvelope } from './envelope.js';
import { answerForError, clientErrorAnswer, type ErrorAnswer } from './error-translator.js';
import { DEFAULT_JSON_LIMIT, readJsonBody } from './json-body.js';
import { NOSNIFF_HEADER, NOSNIFF_VALUE } from './no-sniff.js';
import { requestIdFor, type AccessLog } from './request-context.js';
import { bodyStillComing } from './unread-body.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

// The headers of an answer on the bare response are gathered in a flat list and written by one writeHead:
// each setHeader validates and files its header in a map that writeHead then walks again, which cost the
// reverse lookups about a tenth of their time per request (measured in CPU time per request under load).
const PENDING = Symbol('headers of a bare answer');
// The request's meter, route family and start, read back when its status is written (writeBareHead): three
// plain properties rather than a listener or an object per request.
const METER = Symbol('meter of a bare answer');
const FAMILY = Symbol('route family of a bare answer');
const STARTED = Symbol('start of a bare answer');
type BareResponse = ServerResponse & { [PENDING]?: string[]; [METER]?: HttpMeter; [FAMILY]?: number; [STARTED]?: number };

/**
 * Nosniff, the request id, CORS and the access line, as the base application sets them, and the request's
 * count and latency in `meter` under `family` (HttpMeter.familyIndex) once its answer is written; returns the id.
 */
export function startBareRequest(req: IncomingMessage, res: ServerResponse, access: AccessLog, meter?: HttpMeter, family = 0): string {
  const given = req.headers['x-request-id'];
  const requestId = requestIdFor(typeof given === 'string' ? given : undefined);
  const headers = ['X-Request-Id', requestId, NOSNIFF_HEADER, NOSNIFF_VALUE];
  const origin = req.headers.origin;
  if (origin) headers.push(...OPEN_CORS_HEADERS);
  const bare = res as BareResponse;
  bare[PENDING] = headers;
  if (meter) {
    bare[METER] = meter;
    bare[FAMILY] = family;
    bare[STARTED] = performance.now();
  }
  if (access.takes()) {
    const started = performance.now();
    res.once('finish', () => access.write(requestId, req.method, req.url ?? '', res.statusCode, started));
  }
  return requestId;
}

/** Adds a header to those the bare answer will be written with. */
export function addBareHeader(res: ServerResponse, name: string, value: string): void {
  const pending = (res as BareResponse)[PENDING];
  if (pending) pending.push(name, value);
  else res.setHeader(name, value);
}

/** Writes the status and every header gathered so far in one go (startBareRequest, addBareHeader), and counts the request. */
function writeBareHead(res: ServerResponse, status: number, last: readonly string[]): void {
  const bare = res as BareResponse;
  const meter = bare[METER];
  if (meter !== undefined) meter.record(bare[FAMILY]!, status, bare[STARTED]!);
  const pending = bare[PENDING];
  if (pending === undefined) {
    res.writeHead(status, last as string[]);
    return;
  }
  for (const item of last) pending.push(item);
  res.writeHead(status, pending);
}

export function sendBare(res: ServerResponse, status: number, type: string | null, body: string): void {
  const length = String(Buffer.byteLength(body));
  writeBareHead(res, status, type ? ['Content-Type', type, 'Content-Length', length] : ['Content-Length', length]);
  res.end(body);
}

/** An answer without a body (204). */
export function sendBareEmpty(res: ServerResponse, status: number): void {
  writeBareHead(res, status, []);
  res.end();
}

/** An error answer with its body written out once, for an error sent again and again (a flood's 429). */
export interface PreparedErrorAnswer {
  answer: ErrorAnswer;
  json: string;
}

export function prepareErrorAnswer(error: Error): PreparedErrorAnswer {
  const answer = clientErrorAnswer(error, '');
  if (!answer) throw new TypeError(`${error.name} is not answered as a client error and cannot be prepared`);
  return { answer, json: JSON.stringify(errorEnvelope(answer.message, answer.payload)) };
}

/** An error answer in the envelope, never cached. */
export function sendErrorAnswer(res: ServerResponse, { answer, json }: PreparedErrorAnswer): void {
  const { headers } = answer;
  for (const name in headers) addBareHeader(res, name, headers[name]!);
  addBareHeader(res, 'Cache-Control', 'no-store');
  // A refusal ahead of the body (the heavy-work cap) closes the connection rather than read the body after it.
  if (bodyStillComing(res.req)) addBareHeader(res, 'Connection', 'close');
  sendBare(res, answer.status, JSON_CONTENT_TYPE, json);
}

/** Answers `error` as the Koa applications would (error-translator.ts); cuts a response already under way. */
export function failBare(req: IncomingMessage, res: ServerResponse, requestId: string, error: unknown, logger: Logger): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const url = req.url ?? '';
  const query = url.indexOf('?');
  const request = { requestId, method: req.method ?? '', url, path: query === -1 ? url : url.slice(0, query) };
  const answer = answerForError(error, request, logger);
  sendErrorAnswer(res, { answer, json: JSON.stringify(errorEnvelope(answer.message, answer.payload)) });
}

/** Answers a request from its parsed JSON body. */
export type BareBodyAnswer = (req: IncomingMessage, res: ServerResponse, requestId: string, body: unknown) => void;

/**
 * Reads the request's JSON body (json-body.ts) and answers it with `answer`: a body refused, or an error
 * `answer` throws, is answered by failBare.
 */
export function answerJsonBody(req: IncomingMessage, res: ServerResponse, requestId: string, logger: Logger, answer: BareBodyAnswer): void {
  readJsonBody(req, DEFAULT_JSON_LIMIT, (error, body) => {
    if (error) return failBare(req, res, requestId, error, logger);
    try {
      answer(req, res, requestId, body);
    } catch (answerError) {
      failBare(req, res, requestId, answerError, logger);
    }
  });
}
