/**
 * Requests over a real socket with the bytes exactly as given, which supertest cannot send: a body that is
 * not UTF-8, a path with raw Latin-1 bytes (Node writes the request line as Latin-1). The server is started
 * once per test file and requests share keep-alive connections, so thousands of them stay cheap.
 */
import { once } from 'node:events';
import http, { type IncomingHttpHeaders, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RawRequest {
  method: string;
  /** The request target as sent; characters up to U+00FF go out as single bytes. */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Fails the request when no answer has come by then. */
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface RawServer {
  port: number;
  send: (request: RawRequest) => Promise<RawResponse>;
  close: () => Promise<void>;
}

export async function startRawServer(listener: RequestListener, maxSockets = 8): Promise<RawServer> {
  const server = http.createServer(listener);
  // Node closes a keep-alive connection idle for 5 s; a busy machine can stall this process that long, and
  // a request then sent on the connection the server is closing fails with ECONNRESET through no fault of the
  // service. The agent's connections live as long as the server: close() ends them all.
  server.keepAliveTimeout = 0;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets });

  const send = (request: RawRequest) =>
    new Promise<RawResponse>((resolve, reject) => {
      const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, 'utf8');
      const headers: Record<string, string | number> = { ...request.headers };
      if (body !== undefined) headers['Content-Length'] = body.length;
      const req = http.request({ host: '127.0.0.1', port, agent, method: request.method, path: request.path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      if (request.timeoutMs !== undefined) {
        req.setTimeout(request.timeoutMs, () => req.destroy(new Error(`no answer within ${request.timeoutMs} ms`)));
      }
      req.end(body);
    });

  return {
    port,
    send,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface PartialBodyRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The Content-Length the headers declare. */
  declaredLength: number;
  /** The only part of the body that is sent; the rest never is. */
  firstChunk: Buffer;
  /** Fails the request when no answer has come by then: the server is waiting for the rest of the body. */
  timeoutMs: number;
}

/**
 * Sends a request's headers and the first chunk of its body, and resolves with the server's answer, which
 * must come without the rest of the body (never sent): how a test sees that a route refuses a request
 * before it reads the body. The socket is its own and is closed once the answer is read.
 */
export function sendPartialBody(port: number, request: PartialBodyRequest): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    const headers = { ...request.headers, 'Content-Length': String(request.declaredLength) };
    const req = http.request({ host: '127.0.0.1', port, agent: false, method: request.method, path: request.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(request.timeoutMs, () =>
      req.destroy(new Error(`${request.method} ${request.path}: no answer within ${request.timeoutMs} ms with ${request.firstChunk.length} of ${request.declaredLength} body bytes sent`)),
    );
    req.write(request.firstChunk);
  });
}
