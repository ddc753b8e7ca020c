/**
 * The large hostile bodies, each built once on first use and shared by every case that sends it (a 16 MiB
 * body per case would hold gigabytes): deep and wide JSON, oversize JSON, form and text bodies.
 */

/** Nesting depth of the deep JSON bodies (the "nesting 10,000 deep"). */
export const DEEP_NESTING = 10_000;
/** Keys of the wide JSON object and fields of the wide form. */
export const WIDE_KEYS = 100_000;
/** Size of the oversize bodies, sent before any credentials are checked. */
export const OVERSIZE_BYTES = 16 * 1024 * 1024;

const built = new Map<string, Buffer>();

/** The body named `name`, built by `build` the first time it is asked for. */
export function sharedBody(name: string, build: () => string): () => Buffer {
  return () => {
    let body = built.get(name);
    if (!body) {
      body = Buffer.from(build(), 'utf8');
      built.set(name, body);
    }
    return body;
  };
}

const envelope = (payload: string) => `{"apiVersion":"1.0","payload":${payload}}`;

/** Arrays nested DEEP_NESTING deep, as the payload of the envelope. */
export const deepJsonArrays = sharedBody('deep-arrays', () => envelope(`${'['.repeat(DEEP_NESTING)}${']'.repeat(DEEP_NESTING)}`));

/** Objects nested DEEP_NESTING deep (`{"a":{"a":...}}`), as the payload of the envelope. */
export const deepJsonObjects = sharedBody('deep-objects', () => envelope(`${'{"a":'.repeat(DEEP_NESTING)}1${'}'.repeat(DEEP_NESTING)}`));

/** One object of WIDE_KEYS keys, as the payload of the envelope. */
export const wideJsonObject = sharedBody('wide-object', () => {
  const keys: string[] = [];
  for (let i = 0; i < WIDE_KEYS; i++) keys.push(`"k${i}":${i}`);
  return envelope(`{${keys.join(',')}}`);
});

/** A valid JSON envelope of OVERSIZE_BYTES (one long string). */
export const oversizeJson = sharedBody('oversize-json', () => {
  const head = '{"apiVersion":"1.0","payload":{"pad":"';
  const tail = '"}}';
  return head + 'x'.repeat(OVERSIZE_BYTES - head.length - tail.length) + tail;
});

/** A form of OVERSIZE_BYTES: one field holding it all (the reference-prefix list field, for one). */
export const oversizeForm = sharedBody('oversize-form', () => `csrf=x&source=hostile&format=tsv&list=${'a'.repeat(OVERSIZE_BYTES - 40)}`);

/** A form of WIDE_KEYS fields. */
export const wideForm = sharedBody('wide-form', () => Array.from({ length: WIDE_KEYS }, (_, i) => `f${i}=${i}`).join('&'));

/** OVERSIZE_BYTES of plain text (text/uri-list and other text bodies). */
export const oversizeText = sharedBody('oversize-text', () => `https://example.org/${'a'.repeat(OVERSIZE_BYTES - 20)}`);
