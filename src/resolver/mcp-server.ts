/**
 * The resolver's MCP server (resolver-behaviour.md §4.2: the reference added one in 2025): the reference's
 * four tools `resolve`, `resolveBest`, `convert` and `getSimilar` with its semantics, two more
 * (`searchRegistry`, `describeNamespace`), and its three prompts. What each tool answers is mcp-tools.ts's;
 * this file declares them to the SDK: names, descriptions, argument and result schemas.
 *
 * Every tool result carries its answer twice, as MCP asks of a tool with an output schema: as
 * structuredContent, and as the JSON text of it in `content` for clients that read only text.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MAX_NAMESPACE_SEARCH_LENGTH, MAX_NAMESPACE_SEARCH_LIMIT } from '../core/namespace-search.js';
import { MAX_ITEM_LENGTH } from './batch-request.js';
import type { McpClient, McpTools } from './mcp-tools.js';
import { MAX_ACCESSION_LENGTH, MAX_URL_LENGTH } from './reverse.routes.js';

export const MCP_SERVER_NAME = 'curie-resolver';
export const MCP_SERVER_VERSION = '1.0.0';
const DEFAULT_SEARCH_LIMIT = 20;

// Argument schemas, built once. Every string is bounded, as every input of the resolver's HTTP routes is.
const curie = z.string().min(1).max(MAX_ITEM_LENGTH).describe('A compact identifier, such as taxonomy:9606 or CHEBI:36927, optionally with a provider code (ebi/CHEBI:36927)');
const providerUrl = z.string().min(1).max(MAX_URL_LENGTH).describe("A URL of a provider's page for one entity, such as https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927");
const accession = z
  .string()
  .max(MAX_ACCESSION_LENGTH)
  .optional()
  .describe("The entity's local identifier as it appears in the URL; guessed from the URL's last segment when absent");

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const namespaceSummary = {
  prefix: z.string(),
  mirId: z.string(),
  name: z.string(),
  pattern: z.string().describe('The LUI pattern (a Java regular expression)'),
  sampleId: z.string(),
  deprecated: z.boolean(),
};

function answer<T extends object>(structured: T): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured as Record<string, unknown> };
}

function userPrompt(description: string, text: string): GetPromptResult {
  return { description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}

/**
 * A server, answering one transport (one HTTP request) at a time for the client `clientOf()` answers then
 * (mcp-server-pool.ts keeps them: building one costs about a millisecond, mostly the SDK's Ajv instance).
 * The schemas above are shared.
 */
export function createMcpServer(tools: McpTools, clientOf: () => McpClient): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      instructions:
        'Resolves compact identifiers (prefix:accession, as identifiers.org does) to provider URLs, and provider URLs back to compact identifiers; searches and describes the registry of namespaces.',
    },
  );

  server.registerTool(
    'resolve',
    {
      title: 'Resolve a compact identifier',
      description:
        'Every provider URL a compact identifier resolves to, in the registry\'s provider order (as GET /{curie} lists them). Empty when it does not resolve; errorMessage says why.',
      inputSchema: { curie },
      outputSchema: { urls: z.array(z.string()), errorMessage: z.string().nullable() },
      annotations: READ_ONLY,
    },
    ({ curie }) => answer(tools.resolve(curie, clientOf())),
  );

  server.registerTool(
    'resolveBest',
    {
      title: 'Best URL of a compact identifier',
      description:
        "The one URL a browser is redirected to for a compact identifier: the provider with the highest recommendation index (or the resolver's landing page of a deprecated namespace or protected provider). An error when it does not resolve.",
      inputSchema: { curie },
      outputSchema: { url: z.string() },
      annotations: READ_ONLY,
    },
    ({ curie }) => answer(tools.resolveBest(curie, clientOf())),
  );

  server.registerTool(
    'convert',
    {
      title: 'Provider URL to compact identifier',
      description:
        "The resolver URL of the compact identifier a provider URL stands for, found by the URL's prefix (as POST /reverse/byPrefix). url is null when no provider's URL pattern fits, or the accession does not match the namespace's pattern.",
      inputSchema: { providerUrl, accession },
      outputSchema: { url: z.string().nullable(), curie: z.string().nullable() },
      annotations: READ_ONLY,
    },
    ({ providerUrl, accession }) => answer(tools.convert(providerUrl, accession)),
  );

  server.registerTool(
    'getSimilar',
    {
      title: 'Compact identifiers of similar provider URLs',
      description:
        "The resolver URLs of the providers whose URL, filled with the accession, is nearest to the given URL (as POST /reverse/bySimilarity), nearest first; null where the accession does not match that namespace's pattern.",
      inputSchema: { providerUrl, accession },
      outputSchema: { urls: z.array(z.string().nullable()) },
      annotations: READ_ONLY,
    },
    async ({ providerUrl, accession }) => answer(await tools.getSimilar(providerUrl, accession, clientOf())),
  );

  server.registerTool(
    'searchRegistry',
    {
      title: 'Search the namespaces',
      description:
        'Namespaces whose prefix, synonym or name matches a text: the prefix or synonym that is the text first, then prefixes and synonyms starting with it, prefixes and names containing it, and names with words starting with its words.',
      inputSchema: {
        query: z.string().min(1).max(MAX_NAMESPACE_SEARCH_LENGTH).describe('A prefix or synonym, part of one, or words of a name'),
        limit: z.number().int().min(1).max(MAX_NAMESPACE_SEARCH_LIMIT).optional().describe(`At most this many namespaces (default ${DEFAULT_SEARCH_LIMIT})`),
      },
      outputSchema: { query: z.string(), total: z.number().int(), namespaces: z.array(z.object(namespaceSummary)) },
      annotations: READ_ONLY,
    },
    ({ query, limit }) => answer(tools.searchRegistry(query, limit ?? DEFAULT_SEARCH_LIMIT)),
  );

  server.registerTool(
    'describeNamespace',
    {
      title: 'Describe a namespace',
      description:
        'A namespace by its prefix or one of its synonyms: name, synonyms, description, LUI pattern, sample identifier and its providers.',
      inputSchema: {
        prefix: z.string().min(1).max(MAX_NAMESPACE_SEARCH_LENGTH).describe('The namespace prefix or a synonym of it, in any case, such as taxonomy or ncbitaxon'),
      },
      outputSchema: {
        ...namespaceSummary,
        synonyms: z.array(z.string()),
        description: z.string().nullable(),
        namespaceEmbeddedInLui: z.boolean(),
        suffixPassthrough: z.boolean().describe('Whether a versioned or path-like identifier (dandi:000027/0.210831.2033) resolves: the part after what the pattern matches is appended to each provider URL'),
        deprecationDate: z.string().nullable(),
        sampleCompactIdentifierUrl: z.string(),
        registryPage: z.string(),
        providers: z.array(
          z.object({
            providerCode: z.string(),
            mirId: z.string(),
            name: z.string(),
            description: z.string().nullable(),
            urlPattern: z.string(),
            homeUrl: z.string(),
            official: z.boolean(),
            deprecated: z.boolean(),
            protectedUrls: z.boolean(),
            institution: z.string(),
            countryCode: z.string(),
            sampleUrl: z.string().nullable(),
            recommendationIndex: z.number().nullable(),
          }),
        ),
      },
      annotations: READ_ONLY,
    },
    async ({ prefix }) => answer(await tools.describeNamespace(prefix)),
  );

  // The reference's prompts, by name. Its convert-url-to-idorg-uri reads an argument `curie` it never
  // declares, so its URL is always missing; this one reads the providerUrl (and accession) it declares.
  server.registerPrompt(
    'resolve-all-curie-urls',
    { title: 'All URLs of a compact identifier', description: 'Lists every provider URL of a compact identifier.', argsSchema: { curie } },
    ({ curie }) =>
      userPrompt(
        'Every provider URL of a compact identifier',
        `Use the tool "resolve" to list every URL that the compact identifier ${curie} resolves to, and show them as a list. If the list is empty, say why, with the errorMessage the tool gives.`,
      ),
  );

  server.registerPrompt(
    'resolve-best-curie-url',
    { title: 'Best URL of a compact identifier', description: 'Gives the recommended provider URL of a compact identifier.', argsSchema: { curie } },
    ({ curie }) =>
      userPrompt(
        'The recommended URL of a compact identifier',
        `Use the tool "resolveBest" to find the recommended URL of the compact identifier ${curie}, and give that URL.`,
      ),
  );

  server.registerPrompt(
    'convert-url-to-idorg-uri',
    {
      title: 'Provider URL to compact identifier',
      description: 'Turns the URL of a provider\'s page into the resolver URL of its compact identifier.',
      argsSchema: { providerUrl, accession },
    },
    ({ providerUrl, accession }) =>
      userPrompt(
        'The compact identifier of a provider URL',
        `Use the tool "convert" with the providerUrl ${providerUrl}` +
          (accession ? ` and the accession ${accession}` : '') +
          ' to find the resolver URL of the compact identifier it stands for. If it finds none, use the tool "getSimilar" with the same arguments and give its candidates.',
      ),
  );

  return server;
}
