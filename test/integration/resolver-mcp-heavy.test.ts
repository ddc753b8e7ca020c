/**
 * Issue 21 item 2: POST /mcp is heavy work, as POST /resolve/batch is. Its requests count against the client's
 * cap of heavy requests (429 before the body is read), its messages are answered one per turn of the
 * heavy-work scheduler, so that a single resolution sent after a batch is answered before the batch, and a
 * batch holds at most 10 messages. What the MCP server answers stays the SDK's, byte for byte.
 */
import net from 'node:net';
import { once } from 'node:events';
import { startResolver, type ResolverUnderTest } from '../support/areas.js';
import { startRawServer, type RawServer } from '../support/raw-http.js';
import { waitFor } from '../support/wait.js';

const MCP_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Protocol-Version': '2025-06-18' };

let r: ResolverUnderTest;
let server: RawServer;

beforeAll(async () => {
  r = await startResolver('resolver_mcp_heavy');
  server = await startRawServer(r.app);
});
afterAll(async () => {
  await server?.close();
  await r?.close();
});

const postMcp = (target: RawServer, body: string) => target.send({ method: 'POST', path: '/mcp', headers: MCP_HEADERS, body });
const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** The head of an HTTP/1.1 request that asks the server to close the connection after answering. */
function requestHead(method: string, path: string, headers: Record<string, string>): string {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

const requestBytes = (method: string, path: string, headers: Record<string, string>, body = '') =>
  requestHead(method, path, body === '' ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }) + body;

async function connect(port: number): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  return socket;
}

/** Everything the server sends on `socket` until it closes the connection. */
function answerOf(socket: net.Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const statusOf = (answer: string) => Number(answer.slice(9, 12));

describe('POST /mcp as heavy work', () => {
  it('answers 429 before reading the body while the client has as many heavy requests under way as it may', async () => {
    const { koa } = await r.resolverApp({ env: { RESOLVER_HEAVY_REQUESTS_PER_CLIENT: '1' } });
    const capped = await startRawServer(koa.callback());
    // An MCP request whose body never ends stays under way.
    const held = await connect(capped.port);
    try {
      held.write(`${requestHead('POST', '/mcp', { ...MCP_HEADERS, 'Content-Length': '200' })}[{"jsonrpc":"2.0"`);
      // Malformed JSON: a 400 would mean the body was read; the 429 comes first once the held request counts.
      const refused = await waitFor(
        async () => {
          const answer = await postMcp(capped, '{"jsonrpc":');
          return answer.status === 429 ? answer : undefined;
        },
        { timeoutMs: 10_000, what: 'the second MCP request being refused' },
      );
      expect(refused.headers['retry-after']).toBe('1');
      expect(JSON.parse(refused.text)).toEqual({
        apiVersion: '1.0',
        errorMessage:
          'Too many heavy requests from your address: at most 1 batches and long similarity lookups may be under way at once; send the next one when one of them has been answered',
        payload: null,
      });
      // The cap is the one of the batches: a batch of the same client is refused too.
      const batch = await capped.send({
        method: 'POST',
        path: '/resolve/batch',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: '1.0', payload: { compactIdentifiers: ['taxonomy:9606'] } }),
      });
      expect(batch.status).toBe(429);
    } finally {
      held.destroy();
    }
    // Once the held request is gone, the client may send again.
    const ping = await waitFor(
      async () => {
        const answer = await postMcp(capped, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
        return answer.status === 200 ? answer : undefined;
      },
      { timeoutMs: 10_000, what: 'an MCP request being answered after the held one ended' },
    );
    expect(JSON.parse(ping.text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    await capped.close();
  });

  it('answers a single resolution that comes with the end of a batch of 10 tool calls before it answers the batch', async () => {
    // The server's own order of answers: each response's 'finish', when its last byte is handed to the socket.
    const finished: string[] = [];
    let batchArrived = false;
    const watched = await startRawServer((req, res) => {
      const what = req.url === '/mcp' ? 'batch' : 'single';
      if (what === 'batch') batchArrived = true;
      res.once('finish', () => finished.push(what));
      r.app(req, res);
    });
    try {
      const batch = requestBytes('POST', '/mcp', MCP_HEADERS, JSON.stringify(Array.from({ length: 10 }, (_, i) => call(i + 1, 'resolve', { curie: 'taxonomy:9606' }))));
      const [batchSocket, singleSocket] = await Promise.all([connect(watched.port), connect(watched.port)]);
      const answers = Promise.all([answerOf(batchSocket), answerOf(singleSocket)]);
      // All of the batch but its last byte, so that the server has it under way, waiting for the rest.
      batchSocket.write(batch.slice(0, -1));
      await waitFor(() => batchArrived, { timeoutMs: 10_000, what: 'the batch arriving' });
      // Its last byte, then the single resolution: the server reads both in one go, the batch first.
      batchSocket.write(batch.slice(-1));
      singleSocket.write(requestBytes('GET', '/taxonomy:9606', { Accept: 'application/json' }));
      const [fromBatch, single] = await answers;
      expect(statusOf(single)).toBe(200);
      expect(statusOf(fromBatch)).toBe(200);
      expect(finished).toEqual(['single', 'batch']);
    } finally {
      await watched.close();
    }
  });

  it('refuses a batch of more than 10 messages with 400 naming the limit, before counting its messages', async () => {
    const pings = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'ping' })));
    const refused = await postMcp(server, pings(11));
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      apiVersion: '1.0',
      errorMessage: 'A JSON-RPC batch to /mcp may hold at most 10 messages; this one holds 11: send the others in further requests',
      payload: null,
    });
    const accepted = await postMcp(server, pings(10));
    expect(accepted.status).toBe(200);
    expect((JSON.parse(accepted.text) as unknown[]).length).toBe(10);
  });
});

describe('what POST /mcp answers', () => {
  it('answers a batch with exactly the answers of its messages sent one by one, in order, notifications unanswered', async () => {
    // A server of its own: its first tools/list is the SDK's, the later ones are the kept copy.
    const { koa } = await r.resolverApp();
    const fresh = await startRawServer(koa.callback());
    try {
      const messages = [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'two', method: 'prompts/list' },
        call(3, 'resolve', { curie: 'taxonomy:9606' }),
        call(4, 'resolveBest', { curie: 'taxonomy:abc' }),
        call(5, 'describeNamespace', { prefix: 'go' }),
        call(6, 'getSimilar', { providerUrl: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927' }),
        { jsonrpc: '2.0', id: 7, method: 'resources/list' },
        { jsonrpc: '2.0', id: 8, method: 'tools/list', params: {} },
        { jsonrpc: '2.0', id: 9, method: 'ping' },
      ];
      const alone: string[] = [];
      for (const message of messages) {
        const answer = await postMcp(fresh, JSON.stringify(message));
        if ('id' in message) {
          expect(answer.status).toBe(200);
          alone.push(answer.text);
        } else {
          expect(answer.status).toBe(202);
        }
      }
      // The first tools/list was the SDK's own; the one kept from it is answered alike.
      expect(alone[7]).toBe(alone[0]!.replace('"id":1', '"id":8'));
      const batch = await postMcp(fresh, JSON.stringify(messages));
      expect(batch.status).toBe(200);
      expect(batch.headers['content-type']).toMatch(/^application\/json/);
      expect(batch.text).toBe(`[${alone.join(',')}]`);
      // As the SDK answers: one request and a notification is one answer, not a list; notifications alone, 202.
      const one = await postMcp(fresh, JSON.stringify([messages[1], messages[9]]));
      expect(one.text).toBe(alone[8]);
      expect((await postMcp(fresh, JSON.stringify([messages[1]]))).status).toBe(202);
    } finally {
      await fresh.close();
    }
  });
});
