import { loadOnFirstUse } from '../../src/lib/warm-up.js';


/**
 * What a provider page says about itself: the schema.org JSON-LD blocks it embeds (identifiers.org's
 * metadata service answers these as `metadata`), and a summary of its Open Graph, Twitter card, Dublin Core
 * and plain HTML metadata (title, description, image, ...), each field from the first of those that has it.
 *
 * open-graph-scraper (pure JavaScript, on cheerio) reads the HTML it is given here; it fetches nothing
 * (the page was fetched by the guarded client). metascraper was the first choice, but every version that
 * still runs on Node 20 compiles the re2 native module from C++ source at install, which `npm ci` would
 * then do on every machine and image. It is loaded on the first page to read (~250 ms of modules that a
 * worker process otherwise never needs).
 */
// Not warmed: a worker process serves no requests whose loop it would hold.
const loadScraper = loadOnFirstUse(async () => (await import('open-graph-scraper')).default, { warm: false });

export interface PageSummary {
  title: string | null;
  description: string | null;
  /** Absolute URL of the page's image (og:image, twitter:image, or the first image fallback). */
  image: string | null;
  /** The page's own canonical URL (og:url), absolute. */
  url: string | null;
  siteName: string | null;
  type: string | null;
  locale: string | null;
  /** Absolute URL of the page's icon. */
  favicon: string | null;
}

export interface PageMetadata {
  /** The page's `application/ld+json` blocks that parse as JSON, in page order. */
  jsonLd: unknown[];
  page: PageSummary;
  /** How many JSON-LD blocks were left out: they did not parse, or were past the stored bound. */
  jsonLdSkipped: number;
}

/** JSON-LD kept per page; a larger page's further blocks are counted in jsonLdSkipped. */
export const MAX_JSON_LD_BYTES = 512 * 1024;
/** Longest text kept in a summary field: a title or description longer than this is cut. */
const MAX_FIELD_LENGTH = 2000;

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.replace(/\s+/g, ' ').trim();
  if (trimmed === '') return null;
  return trimmed.length > MAX_FIELD_LENGTH ? `${trimmed.slice(0, MAX_FIELD_LENGTH - 1)}…` : trimmed;
}

/** `value` made absolute against the page's URL; null when it is not a usable http(s) URL. */
function absolute(value: unknown, base: string): string | null {
  const t = text(value);
  if (t === null) return null;
  try {
    const url = new URL(t, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

function firstImage(images: unknown): unknown {
  return Array.isArray(images) ? (images[0] as { url?: unknown } | undefined)?.url : undefined;
}

/** The metadata of the HTML `html`, fetched from `pageUrl` (the URL after redirects). */
export async function extractMetadata(html: string, pageUrl: string): Promise<PageMetadata> {
  const ogs = await loadScraper();
  const { result } = await ogs({ html, jsonLDOptions: { throwOnJSONParseError: false, logOnJSONParseError: false } });
  const found = result as typeof result & Record<string, unknown>;
  const jsonLd: unknown[] = [];
  let jsonLdSkipped = 0;
  let kept = 0;
  for (const block of result.jsonLD ?? []) {
    const size = JSON.stringify(block).length;
    if (kept + size > MAX_JSON_LD_BYTES) {
      jsonLdSkipped += 1;
      continue;
    }
    kept += size;
    jsonLd.push(block);
  }
  // Blocks that did not parse are dropped by the library; count them from the page's script tags.
  const scripts = html.match(/<script[^>]*type\s*=\s*["']?application\/ld\+json/gi)?.length ?? 0;
  jsonLdSkipped += Math.max(0, scripts - (result.jsonLD?.length ?? 0));
  return {
    jsonLd,
    jsonLdSkipped,
    page: {
      title: text(result.ogTitle) ?? text(result.twitterTitle) ?? text(result.dcTitle),
      description: text(result.ogDescription) ?? text(result.twitterDescription) ?? text(result.dcDescription),
      image: absolute(firstImage(result.ogImage), pageUrl) ?? absolute(firstImage(result.twitterImage), pageUrl),
      url: absolute(result.ogUrl, pageUrl),
      siteName: text(result.ogSiteName),
      type: text(result.ogType),
      locale: text(result.ogLocale) ?? text(found.dcLanguage),
      favicon: absolute(result.favicon, pageUrl),
    },
  };
}

/** Whether the page said anything at all about itself. */
export function hasMetadata(metadata: PageMetadata): boolean {
  return metadata.jsonLd.length > 0 || Object.values(metadata.page).some((value) => value !== null && value !== undefined);
}
