/**
 * POST /mcp: the MCP server (mcp-server.ts) over Streamable HTTP, stateless (no Mcp-Session-Id): each POST is
 * answered on its own by a fresh server and transport, with a JSON answer rather than an event stream, so
 * any resolver process of a cluster can take any request. GET (the server's own event stream) and DELETE
 * (ending a session) are not served: 405 with Allow: POST, as the Streamable HTTP transport says a server
 * without them answers.
 *
 * The body is read and checked here, as every JSON endpoint's (size, content type, UTF-8, the input guard),
 * and refusals before the MCP layer (413, 415, 400, 429) are the resolver's error envelope; everything after
 * is the SDK's JSON-RPC.
 */
import { Router } from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { badRequest } from '../http/http-error.js';
import { DEFAULT_JSON_LIMIT, readJsonRequest } from '../http/json-body.js';
import { chargeMore } from '../http/rate-limit-middleware.js';
import type { Logger } from '../lib/logger.js';
import { MCP_PATH } from './front-handler.js';
import { createMcpServer } from './mcp-server.js';
import type { McpTools } from './mcp-tools.js';

export interface McpRouteDeps {
  tools: McpTools;
  logger: Logger;
}

/** MCP messages are small: a tool call is a few hundred bytes, and a JSON-RPC batch holds at most 100 of them. */
export const MCP_JSON_LIMIT = DEFAULT_JSON_LIMIT;

export function mcpRoutes(deps: McpRouteDeps): Router {
  const router = new Router();
  router.post(MCP_PATH, async (ctx) => {
    const body = await readJsonRequest(ctx.req, MCP_JSON_LIMIT);
    if (body === undefined) throw badRequest('Empty request body: send a JSON-RPC message');
    // The request counted as one resolution (resolverFamilyOf); each further message of a batch counts too.
    if (Array.isArray(body)) await chargeMore(ctx, body.length - 1);
    const client = { address: ctx.ip, userAgent: ctx.get('User-Agent'), doNotTrack: ctx.get('DNT') === '1' };
    const server = createMcpServer(deps.tools, client);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    transport.onerror = (error) => deps.logger.debug({ err: error, requestId: ctx.state.requestId }, 'MCP request refused');
    // The transport writes the answer on the bare response; Koa must not write one of its own.
    ctx.respond = false;
    ctx.res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, body);
  });
  return router;
}
