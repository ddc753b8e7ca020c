/**
 * POST /mcp: the MCP server (mcp-server.ts) over Streamable HTTP, stateless (no Mcp-Session-Id): each POST is
 * answered on its own by a server of the pool and a fresh transport, with a JSON answer rather than an event
 * stream, so any resolver process of a cluster can take any request. GET (the server's own event stream) and
 * DELETE (ending a session) are not served: 405 with Allow: POST, as the Streamable HTTP transport says a
 * server without them answers.
 *
 * A heavy request (heavy-work.ts): counted against its client's cap before its body is read, and its
 * messages answered one per turn of the heavy-work scheduler (mcp-message-turns.ts), so that a flood of
 * batches waits its turn behind single resolutions instead of holding the event loop.
 *
 * The body is read and checked here, as every JSON endpoint's (size, content type, UTF-8, the input guard),
 * and refusals before the MCP layer (413, 415, 400, 429) are the resolver's error envelope; everything after
 * is the SDK's JSON-RPC.
 *
 * The MCP SDK (with zod and the servers' own ajv) takes a good 200 ms to load: loaded by the first POST /mcp
 * whose body passed those checks, or at the warm-up of a serving resolver that has MCP on, never by the
 * tests that build a resolver and send it no MCP request.
 */
import { Router } from '@koa/router';
import { badRequest } from '../http/http-error.js';
import { DEFAULT_JSON_LIMIT, readJsonRequest } from '../http/json-body.js';
import type { KoaPath } from '../http/koa-paths.js';
import { chargeMore } from '../http/rate-limit-middleware.js';
import type { Logger } from '../lib/logger.js';
import { importInTurn, loadOnFirstUse, warmUpWith } from '../lib/warm-up.js';
import { MCP_PATH } from './front-handler.js';
import { countHeavyRequest, type HeavyWork } from './heavy-work.js';
import type { McpListResults } from './mcp-message-turns.js';
import type { McpServerPool } from './mcp-server-pool.js';
import type { McpTools } from './mcp-tools.js';

const loadMcp = loadOnFirstUse(
  () =>
    importInTurn(
      () => import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
      () => import('./mcp-message-turns.js'),
      () => import('./mcp-server-pool.js'),
    ),
  { warm: false },
);

export interface McpRouteDeps {
  tools: McpTools;
  /** The per-client cap and fair scheduling of heavy requests, shared with the batches and reverse lookups. */
  heavy: HeavyWork;
  logger: Logger;
}

/** MCP messages are small: a tool call is a few hundred bytes. */
export const MCP_JSON_LIMIT = DEFAULT_JSON_LIMIT;

/**
 * Messages in one JSON-RPC batch (the SDK takes 100). MCP clients send one message per request (the
 * 2025-06-18 protocol dropped batches; the SDK's client never sends one), while the answers of a batch's
 * messages make one JSON text that the SDK serialises and writes in one go, outside any turn: 100 `tools/list`
 * were 790 KB and about 5 ms of it; 10 are 79 KB and about a millisecond, the size of a unit of heavy work.
 */
export const MCP_MAX_BATCH = 10;

/** Koa's path (koa-paths.ts), mounted or not: with RESOLVER_MCP off, Koa answers it 404, never as a compact identifier. */
export const MCP_PATHS: readonly KoaPath[] = [{ path: MCP_PATH }];

export function mcpRoutes(deps: McpRouteDeps): Router {
  warmUpWith(loadMcp);
  const router = new Router();
  let pool: McpServerPool | undefined;
  const lists: McpListResults = new Map();
  router.post(MCP_PATH, countHeavyRequest(deps.heavy), async (ctx) => {
    const body = await readJsonRequest(ctx.req, MCP_JSON_LIMIT);
    if (body === undefined) throw badRequest('Empty request body: send a JSON-RPC message');
    if (Array.isArray(body)) {
      if (body.length > MCP_MAX_BATCH) {
        throw badRequest(`A JSON-RPC batch to ${MCP_PATH} may hold at most ${MCP_MAX_BATCH} messages; this one holds ${body.length}: send the others in further requests`);
      }
      // The request counted as one resolution (resolverFamilyOf); each further message of a batch counts too.
      await chargeMore(ctx, body.length - 1);
    }
    const [{ StreamableHTTPServerTransport }, { answerMessagesInTurns }, { McpServerPool }] = await loadMcp();
    pool ??= new McpServerPool(deps.tools);
    const servers = pool;
    const address = ctx.ip;
    const pooled = servers.acquire({ address, userAgent: ctx.get('User-Agent'), doNotTrack: ctx.get('DNT') === '1' });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = (error) => deps.logger.debug({ err: error, requestId: ctx.state.requestId }, 'MCP request refused');
    // The transport writes the answer on the bare response; Koa must not write one of its own.
    ctx.respond = false;
    // Settles at once (the transport's start() does nothing): no event of the response comes in between.
    await pooled.server.connect(transport);
    const turns = answerMessagesInTurns(transport, deps.heavy, address, lists);
    ctx.res.once('close', () => {
      turns.stop();
      void servers.release(pooled);
    });
    await transport.handleRequest(ctx.req, ctx.res, body);
  });
  return router;
}
