import accepts from 'accepts';
import type { IncomingMessage } from 'node:http';

// Clients send few distinct Accept headers (each browser has its own), so the verdict is remembered per
// header text, in a bounded map: negotiating costs more than the lookup of a cached page.
const verdicts = new Map<string, boolean>();
const MAX_VERDICTS = 500;

/**
 * Whether the client is a browser asking for a page: its Accept prefers text/html over application/json.
 * A missing Accept, `*\/*` (curl) and JSON clients are not, so they keep the API's answer on a shared path.
 */
export function prefersHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (!accept || !accept.includes('html')) return false;
  let verdict = verdicts.get(accept);
  if (verdict === undefined) {
    verdict = accepts(req).type(['json', 'html']) === 'html';
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear();
    verdicts.set(accept, verdict);
  }
  return verdict;
}

const RDF_TYPES = ['text/turtle', 'application/n-triples', 'application/ld+json'] as const;
export type RdfMediaType = (typeof RDF_TYPES)[number];
// JSON and HTML are offered first, so that `*\/*`, a browser's Accept and a JSON client keep today's answers.
const OFFERED = ['application/json', 'text/html', ...RDF_TYPES];

/** The RDF type the client's Accept names and prefers over JSON and HTML, or null (most clients, at once). */
export function preferredRdfType(req: IncomingMessage): RdfMediaType | null {
  const accept = req.headers.accept;
  if (!accept || !/turtle|n-triples|ld\+json/i.test(accept)) return null;
  const type = accepts(req).type(OFFERED);
  return typeof type === 'string' && (RDF_TYPES as readonly string[]).includes(type) ? (type as RdfMediaType) : null;
}
