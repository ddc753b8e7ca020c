import { asciiLocation } from '../../src/http/ascii-location.js';
import { checkJsonBody, MAX_JSON_DEPTH, textProblem } from '../../src/http/input-guard.js';

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};

describe('textProblem', () => {
  it('passes ordinary text, emoji (a surrogate pair) and other scripts', () => {
    for (const text of ['', 'go', 'Grüße 中文 😀', '\uFFFD', '\u2028']) expect(textProblem(text)).toBeNull();
  });

  it('names the NUL character and an unpaired surrogate, high or low', () => {
    expect(textProblem('a\u0000b')).toBe('must not contain the NUL character (U+0000)');
    expect(textProblem('a\ud800@example.org')).toBe('holds an unpaired UTF-16 surrogate (U+D800); send well-formed Unicode text');
    expect(textProblem('\udc00')).toMatch(/U\+DC00/);
    expect(textProblem('😀\ud83d')).toMatch(/U\+D83D/);
  });
});

describe('checkJsonBody', () => {
  it('accepts every body a client sends today', () => {
    const body = { apiVersion: '1.0', payload: { requester: { name: 'Ann 😀', email: 'ann@example.org' }, references: ['x'], n: 1e308 } };
    expect(checkJsonBody(body)).toBeNull();
    expect(checkJsonBody([1, 'a', null, true])).toBeNull();
    expect(checkJsonBody(undefined)).toBeNull();
  });

  it('refuses a NUL in a string with 400 naming the field as a client writes it', () => {
    const error = checkJsonBody({ apiVersion: '1.0', payload: { rorId: 'https://ror.org/\u0000' } });
    expect({ status: error?.status, message: error?.message }).toEqual({
      status: 400,
      message: "Request body field 'payload.rorId' must not contain the NUL character (U+0000)",
    });
    expect(checkJsonBody({ compactIdentifiers: ['GO:0006915', 'a\u0000'] })?.message).toBe(
      "Request body field 'compactIdentifiers[1]' must not contain the NUL character (U+0000)",
    );
    expect(checkJsonBody('\u0000')?.message).toBe('Request body must not contain the NUL character (U+0000)');
  });

  it('refuses a lone surrogate in a string and in a key, and escapes the key in the message', () => {
    expect(checkJsonBody({ payload: { requester: { email: 'a\ud800@example.org' } } })?.message).toBe(
      "Request body field 'payload.requester.email' holds an unpaired UTF-16 surrogate (U+D800); send well-formed Unicode text",
    );
    const keyed = checkJsonBody({ payload: { 'bad\ud800key': 1 } });
    expect(keyed?.message).toBe(
      'Request body field name \'payload["bad\\ud800key"]\' holds an unpaired UTF-16 surrogate (U+D800); send well-formed Unicode text',
    );
    expect(checkJsonBody({ 'x\u0000': 1 })?.message).toBe('Request body field name \'["x\\u0000"]\' must not contain the NUL character (U+0000)');
  });

  it('skips the strings when told the text has no \\u escape, but never the depth', () => {
    expect(checkJsonBody({ a: '\u0000' }, false)).toBeNull();
    expect(checkJsonBody(nested(MAX_JSON_DEPTH + 1), false)?.status).toBe(400);
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses one more, or 5,000, without overflowing the stack`, () => {
    expect(checkJsonBody(nested(MAX_JSON_DEPTH))).toBeNull();
    for (const depth of [MAX_JSON_DEPTH + 1, 5000, 100_000]) {
      expect(checkJsonBody(nested(depth))?.message).toBe(`Request body is nested more than ${MAX_JSON_DEPTH} levels deep`);
    }
  });
});

describe('asciiLocation', () => {
  it('returns an ASCII URL as it is, stray percent signs and escapes included', () => {
    for (const url of ['https://doi.org/10.1038/nbt1156', 'https://x.test/a%20b?q=%ZZ&r=100%', 'https://x.test/{id}|"<>']) {
      expect(asciiLocation(url)).toBe(url);
    }
  });

  it('percent-encodes characters above U+00FF as UTF-8, and the result decodes back to the URL', () => {
    const url = 'https://doi.org/10.1038/nbt1156中';
    expect(asciiLocation(url)).toBe('https://doi.org/10.1038/nbt1156%E4%B8%AD');
    expect(decodeURI(asciiLocation(url))).toBe(url);
    expect(asciiLocation('https://x.test/😀')).toBe('https://x.test/%F0%9F%98%80');
  });

  it('percent-encodes Latin-1 characters, controls and spaces that Node would otherwise send as raw bytes', () => {
    expect(asciiLocation('https://x.test/café')).toBe('https://x.test/caf%C3%A9');
    expect(asciiLocation('https://x.test/a b\u0000\r\n\u007f')).toBe('https://x.test/a%20b%00%0D%0A%7F');
    // Kept escapes stay escapes next to new ones.
    expect(asciiLocation('https://x.test/%41é')).toBe('https://x.test/%41%C3%A9');
  });

  it('never throws: a lone surrogate becomes U+FFFD', () => {
    expect(asciiLocation('https://x.test/\ud800')).toBe('https://x.test/%EF%BF%BD');
  });
});
