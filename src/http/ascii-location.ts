// Visible ASCII: what a header carries as it is. Node refuses characters above U+00FF in a header (a 500)
// and sends U+0080..U+00FF as single raw bytes, which no client reads back as the URL that was meant.
const NOT_VISIBLE_ASCII = /[^\x21-\x7e]+/g;
const HAS_NOT_VISIBLE_ASCII = /[^\x21-\x7e]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A URL as a Location header can carry it: every character outside visible ASCII (controls, space,
 * non-ASCII) percent-encoded as UTF-8, as a browser's URL parser would; the URL's own characters and its
 * existing %XX escapes are kept, so an ASCII URL (nearly every one) is returned as it is.
 */
export function asciiLocation(url: string): string {
  if (!HAS_NOT_VISIBLE_ASCII.test(url)) return url;
  return url.replace(NOT_VISIBLE_ASCII, (run) => encodeURIComponent(run.replace(LONE_SURROGATE, '\uFFFD')));
}
