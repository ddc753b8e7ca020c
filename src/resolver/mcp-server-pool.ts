/**
 * MCP servers kept between requests. The SDK's stateless transport answers one HTTP request and an McpServer
 * is connected to one transport at a time, so each request needs a server of its own; building one took
 * about a millisecond and a half of the event loop (a new Ajv instance, every tool's schemas), more than
 * answering a message. A server closed after its request is connected again to the next one: in stateless
 * mode nothing it keeps between requests shows in an answer.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpServer } from './mcp-server.js';
import type { McpClient, McpTools } from './mcp-tools.js';

/** Idle servers kept; more requests at once build more, dropped again when they end. */
const MAX_IDLE_SERVERS = 16;

const NO_CLIENT: McpClient = { address: '', userAgent: '', doNotTrack: true };

export interface PooledMcpServer {
  readonly server: McpServer;
  /** Whom the server answers now: its tools count usage and take heavy-work turns as this client. */
  client: McpClient;
}

export class McpServerPool {
  readonly #idle: PooledMcpServer[] = [];

  constructor(private readonly tools: McpTools) {}

  /** A server for one request of `client`, not connected to any transport. */
  acquire(client: McpClient): PooledMcpServer {
    const pooled = this.#idle.pop() ?? this.#create();
    pooled.client = client;
    return pooled;
  }

  /** Closes the server's transport and keeps the server for another request. */
  async release(pooled: PooledMcpServer): Promise<void> {
    try {
      await pooled.server.close();
    } catch {
      // Not reused: a server whose transport did not close might still be connected to it.
      return;
    }
    pooled.client = NO_CLIENT;
    if (this.#idle.length < MAX_IDLE_SERVERS) this.#idle.push(pooled);
  }

  #create(): PooledMcpServer {
    const pooled: { server?: McpServer; client: McpClient } = { client: NO_CLIENT };
    pooled.server = createMcpServer(this.tools, () => pooled.client);
    return pooled as PooledMcpServer;
  }
}
