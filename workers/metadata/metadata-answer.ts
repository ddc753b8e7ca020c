import type { PageFetchResult } from '../../src/lib/http-client.js';
import type { StoredMetadataAnswer } from '../../src/queue/metadata.queue.js';
import { describeSeconds, describeStatus } from '../url-check/url-verdict.js';
import { hasMetadata, type PageMetadata } from './extract-metadata.js';

/** The payload of every answer about a fetched page, the metadata first as in identifiers.org's answer. */
interface PagePayload {
  /** identifiers.org's field: the page's schema.org JSON-LD blocks; null when the page could not be read. */
  metadata: unknown[] | null;
  /** The page asked for. */
  url: string;
  /** Where the redirects ended (the URL asked for when the page was not reached). */
  finalUrl: string;
  /** When the page was fetched (ISO 8601): the answer may come from the cache, see the Age header. */
  fetchedAt: string;
  page?: PageMetadata['page'];
  jsonLdSkipped?: number;
}

/** Content types that are read for metadata; an answer without one is read too. */
function isHtml(contentType: string | string[] | undefined): boolean {
  const value = Array.isArray(contentType) ? contentType[0] : contentType;
  if (value === undefined || value.trim() === '') return true;
  return /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(value);
}

function failure(status: number, errorMessage: string, payload: PagePayload): StoredMetadataAnswer {
  return { status, fetchedAtMs: Date.parse(payload.fetchedAt), errorMessage, payloadJson: JSON.stringify(payload) };
}

/**
 * The answer to store for one fetch of `url`: 200 with the metadata; 404 when the page says nothing about
 * itself (identifiers.org's "No metadata found"); 422 for an address the guard refuses; 502 when the page
 * cannot be reached or answers an error; 504 when it does not answer in time. `extract` runs only on an HTML
 * page that was read.
 */
export async function metadataAnswer(
  url: string,
  result: PageFetchResult,
  fetchedAtMs: number,
  timeoutMs: number,
  extract: (html: string, pageUrl: string) => Promise<PageMetadata>,
): Promise<StoredMetadataAnswer> {
  const fetchedAt = new Date(fetchedAtMs).toISOString();
  const base = { metadata: null, url, finalUrl: result.finalUrl, fetchedAt };
  if (!result.ok) {
    const { failure: why } = result;
    switch (why.kind) {
      case 'refused':
        return failure(422, `The URL ${why.url} is not fetched: ${why.reason}`, base);
      case 'timeout':
        return failure(504, `The page at ${url} did not answer within ${describeSeconds(timeoutMs)} seconds`, base);
      case 'redirect-loop':
        return failure(502, `The page at ${url} redirects in a loop (back to ${why.url})`, base);
      case 'connect':
        return failure(502, `The page at ${url} could not be reached: failed to connect to the server`, base);
      case 'tls':
        return failure(502, `The page at ${url} could not be reached: the TLS connection failed`, base);
      case 'too-many-redirects':
      case 'error':
        return failure(502, `The page at ${url} could not be reached: ${why.message}`, base);
    }
  }
  if (result.status < 200 || result.status > 299) {
    return failure(502, `The page at ${url} answered ${describeStatus(result.status)}`, base);
  }
  const contentType = result.headers['content-type'];
  if (!isHtml(contentType)) {
    return failure(404, `No metadata found for URL ${url}: the page is ${String(contentType)}, not HTML`, base);
  }
  let metadata: PageMetadata;
  try {
    metadata = await extract(result.body, result.finalUrl);
  } catch (error) {
    // Retrying would read the same HTML the same way: an answer, not a failed job.
    return failure(502, `The page at ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`, base);
  }
  if (!hasMetadata(metadata)) return failure(404, `No metadata found for URL ${url}`, base);
  const payload: PagePayload = { ...base, metadata: metadata.jsonLd, page: metadata.page, jsonLdSkipped: metadata.jsonLdSkipped };
  return { status: 200, fetchedAtMs, errorMessage: null, payloadJson: JSON.stringify(payload) };
}
