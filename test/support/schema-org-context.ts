/**
 * Expands the registry's schema.org answers offline. The context is a fixture holding only the terms those
 * answers use (no `@vocab`), and expansion runs in jsonld's safe mode, so a term the context does not map
 * fails the expansion instead of being dropped silently. The loader serves the fixture for schema.org's
 * addresses and refuses every other URL: tests never reach the internet.
 */
import { readFileSync } from 'node:fs';
import jsonld from 'jsonld';
import type { JsonLdDocument, Options } from 'jsonld';

type DocumentLoader = NonNullable<Options.Expand['documentLoader']>;
type RemoteDocument = Awaited<ReturnType<DocumentLoader>>;

const CONTEXT_FILE = new URL('../fixtures/schema-org-context.json', import.meta.url);
const SCHEMA_ORG_URLS = new Set(['https://schema.org', 'https://schema.org/', 'http://schema.org', 'http://schema.org/']);

/** Every URL the loader was asked for, to show that nothing else was fetched. */
export const requestedContextUrls: string[] = [];

export async function loadSchemaOrgContext(url: string): Promise<RemoteDocument> {
  requestedContextUrls.push(url);
  if (!SCHEMA_ORG_URLS.has(url)) throw new Error(`the test document loader refuses ${url}`);
  return { contextUrl: undefined, documentUrl: url, document: JSON.parse(readFileSync(CONTEXT_FILE, 'utf8')) };
}

/** Expanded JSON-LD: every node's properties keyed by full IRI, values as arrays. */
export type ExpandedNode = Record<string, unknown>;

export async function expandSchemaOrg(doc: JsonLdDocument): Promise<ExpandedNode[]> {
  // `safe` exists in jsonld 9 but not in @types/jsonld.
  const options: Options.Expand & { safe: boolean } = {
    safe: true,
    documentLoader: loadSchemaOrgContext as DocumentLoader,
  };
  return (await jsonld.expand(doc, options)) as unknown as ExpandedNode[];
}
