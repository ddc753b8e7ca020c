/**
 * The messages of one POST /mcp handed to the MCP server one at a time, each as a unit of its client's heavy
 * work (heavy-work.ts), as POST /resolve/batch does with its slices. The SDK's transport hands every message
 * of a JSON-RPC batch to the server at once, and the server answers them all in the promise callbacks that
 * follow, out of any scheduler's sight: a batch of 100 `tools/list` held the event loop for half a second.
 * Here the next message goes to the server only once the last one is answered, in a turn of its own; the
 * transport still checks the request, collects the answers and writes them, so what it answers is the SDK's.
 * Notifications that still wait when the answer is gone (the SDK answers 202 at once to notifications alone)
 * are dropped: a stateless server does nothing with them (no session to start, no request of its own to cancel).
 *
 * `tools/list` and `prompts/list` without parameters always have the same result (the tools and prompts are
 * declared once, mcp-server.ts), which the SDK builds anew each time, turning every zod schema into JSON
 * Schema (about a millisecond): the first result is kept, and later ones are sent as the SDK sends a result.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type JSONRPCRequest, type Result } from '@modelcontextprotocol/sdk/types.js';
import type { HeavyWork } from './heavy-work.js';

type MessageExtra = Parameters<NonNullable<Transport['onmessage']>>[1];

/** The methods whose result without parameters never changes. */
const FIXED_LISTS = new Set(['tools/list', 'prompts/list']);

/** The results of FIXED_LISTS, kept by the first request that asked for each (one per app). */
export type McpListResults = Map<string, Result>;

export interface MessageTurns {
  /** Hands no further message to the server: the request is over (answered or its client gone). */
  stop(): void;
}

function fixedListOf(request: JSONRPCRequest): string | undefined {
  const params = request.params;
  const bare = params === undefined || (typeof params === 'object' && params !== null && Object.keys(params).length === 0);
  return bare && FIXED_LISTS.has(request.method) ? request.method : undefined;
}

/**
 * Takes over `transport`'s messages (call it after the server's connect(), which installs the server's
 * handler) for the client `client` of `heavy`.
 */
export function answerMessagesInTurns(transport: Transport, heavy: HeavyWork, client: string, lists: McpListResults): MessageTurns {
  const toServer = transport.onmessage;
  if (!toServer) throw new Error('answerMessagesInTurns: connect the server to the transport first');
  const send = transport.send.bind(transport);
  const waiting: Array<[JSONRPCMessage, MessageExtra]> = [];
  let answered: { request: JSONRPCRequest; list: string | undefined; done: () => void } | undefined;
  let stopped = false;
  let running = false;

  transport.send = (message, options) => {
    if (answered && (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id === answered.request.id) {
      const { list, done } = answered;
      answered = undefined;
      if (list && 'result' in message && !lists.has(list)) lists.set(list, message.result);
      done();
    }
    return send(message, options);
  };

  const reportError = (error: unknown) => transport.onerror?.(error instanceof Error ? error : new Error(String(error)));

  /** Hands one message to the server; settles once it is answered (requests) or taken (the others). */
  const handOver = (message: JSONRPCMessage, extra: MessageExtra): Promise<void> => {
    // Stopped while this turn waited: the server may already answer another request (mcp-server-pool.ts).
    if (stopped) return Promise.resolve();
    if (!isJSONRPCRequest(message)) {
      toServer(message, extra);
      return Promise.resolve();
    }
    const list = fixedListOf(message);
    const kept = list === undefined ? undefined : lists.get(list);
    // The SDK's answer (protocol.js _onrequest), fields in its order.
    if (kept) return send({ result: kept, jsonrpc: '2.0', id: message.id } as JSONRPCMessage).catch(reportError);
    return new Promise<void>((done) => {
      answered = { request: message, list, done };
      toServer(message, extra);
    });
  };

  const run = async () => {
    running = true;
    try {
      for (let next = waiting.shift(); next && !stopped; next = waiting.shift()) {
        const [message, extra] = next;
        await heavy.runAsync(client, () => handOver(message, extra)).catch(reportError);
      }
    } finally {
      running = false;
    }
  };

  transport.onmessage = (message, extra) => {
    waiting.push([message, extra]);
    if (!running) void run();
  };

  return {
    stop: () => {
      stopped = true;
      waiting.length = 0;
    },
  };
}
