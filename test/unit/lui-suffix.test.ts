import { recordLuiPatternVerdict } from '../../src/core/lui-pattern.js';
import { encodeLuiSuffix, MAX_HEAD_LENGTH, MAX_SPLIT_POINTS, MAX_SUFFIX_LENGTH, splitLuiSuffix } from '../../src/core/lui-suffix.js';
import { buildSnapshot, type NamespaceEntry } from '../../src/core/registry-snapshot.js';
import { resolveCompactId } from '../../src/core/resolve.js';
import { presentResolution, resolutionJson } from '../../src/resolver/resolution.presenter.js';
import { landingRequestOf } from '../../src/resolver/landing-request.js';
import { aNamespace, aResource, sampleNamespaces } from '../factories/snapshot.factory.js';

const REGISTRY = 'https://registry.example.org';
const DANDI_PATTERN = '^\\d{6}$';
const VULNERABLE_PATTERN = '^\\w+_?\\d+(.\\d+)?$';

function dandi(suffixPassthrough: boolean, prefix = 'dandi', id = 9001): NamespaceEntry {
  return aNamespace({
    id,
    prefix,
    pattern: DANDI_PATTERN,
    suffixPassthrough,
    resources: [
      aResource({ id: id * 10, urlPattern: 'https://dandiarchive.org/dandiset/{$id}', providerCode: 'dandi' }),
      aResource({ id: id * 10 + 1, urlPattern: 'https://api.example.org/dandisets/{$id}?format=json', providerCode: 'api' }),
    ],
  });
}

const snapshot = buildSnapshot(1, [
  ...sampleNamespaces().map((ns) => (ns.prefix === 'taxonomy' ? { ...ns, suffixPassthrough: true } : ns)),
  dandi(true),
  dandi(false, 'dandioff', 9002),
  aNamespace({
    id: 9003,
    prefix: 'slow',
    pattern: VULNERABLE_PATTERN,
    suffixPassthrough: true,
    resources: [aResource({ id: 90030, urlPattern: 'https://slow.example.org/{$id}' })],
  }),
]);
const resolve = (raw: string) => resolveCompactId(raw, snapshot, { publicRegistryUrl: REGISTRY });
const answer = (raw: string) => presentResolution(resolve(raw));
const urls = (raw: string) => answer(raw).body.payload.resolvedResources?.map((r) => r.compactIdentifierResolvedUrl);

describe('splitLuiSuffix', () => {
  it('takes the longest leading part the pattern matches, ending before a separator', () => {
    expect(splitLuiSuffix('^\\d{6}$', '000027/0.210831.2033')).toEqual({ kind: 'split', head: '000027', suffix: '/0.210831.2033' });
    expect(splitLuiSuffix('^\\d+(\\.\\d+)?$', '12.5/files;v=2')).toEqual({ kind: 'split', head: '12.5', suffix: '/files;v=2' });
    for (const separator of ['/', '.', ';', '#', '?']) {
      expect(splitLuiSuffix('^\\d+$', `42${separator}x`)).toEqual({ kind: 'split', head: '42', suffix: `${separator}x` });
    }
  });

  it('splits nowhere else: not inside a run of other characters, and never with an empty head', () => {
    expect(splitLuiSuffix('^\\d+$', '42abc')).toEqual({ kind: 'none' });
    expect(splitLuiSuffix('^\\d+$', '42-abc')).toEqual({ kind: 'none' });
    expect(splitLuiSuffix('^.*$', '/x')).toEqual({ kind: 'none' });
    expect(splitLuiSuffix('^\\d+$', 'x/1')).toEqual({ kind: 'none' });
  });

  it(`tries only the first ${MAX_SPLIT_POINTS} separators`, () => {
    const head = Array.from({ length: MAX_SPLIT_POINTS }, (_, i) => String(i)).join('.');
    // The head itself holds MAX_SPLIT_POINTS - 1 dots; the separator after it is the last one tried.
    expect(splitLuiSuffix('^[\\d.]+$', `${head}/x`)).toMatchObject({ head, suffix: '/x' });
    expect(splitLuiSuffix('^[\\d.]+$', `${head}.1/x`)).toMatchObject({ head, suffix: '.1/x' });
  });

  it(`tries heads of at most ${MAX_HEAD_LENGTH} characters`, () => {
    expect(splitLuiSuffix('^\\d+$', `${'9'.repeat(MAX_HEAD_LENGTH)}/x`)).toMatchObject({ kind: 'split', suffix: '/x' });
    expect(splitLuiSuffix('^\\d+$', `${'9'.repeat(MAX_HEAD_LENGTH + 1)}/x`)).toEqual({ kind: 'none' });
  });

  it('refuses a suffix with a . or .. path segment, or longer than the limit', () => {
    expect(splitLuiSuffix('^\\d+$', '42/../admin')).toMatchObject({ kind: 'refused', problem: "holds a '.' or '..' path segment" });
    expect(splitLuiSuffix('^\\d+$', '42/a/.')).toMatchObject({ kind: 'refused' });
    expect(splitLuiSuffix('^\\d+$', '42/..')).toMatchObject({ kind: 'refused' });
    // Dots that are no segment of their own are ordinary characters, and after a ? or # they are no path.
    expect(splitLuiSuffix('^\\d+$', '42..')).toMatchObject({ kind: 'split', suffix: '..' });
    expect(splitLuiSuffix('^\\d+$', '42/a..b/c')).toMatchObject({ kind: 'split' });
    expect(splitLuiSuffix('^\\d+$', '42?x=/../')).toMatchObject({ kind: 'split', suffix: '?x=/../' });
    expect(splitLuiSuffix('^\\d+$', `42/${'a'.repeat(MAX_SUFFIX_LENGTH)}`)).toMatchObject({
      kind: 'refused',
      problem: `is longer than ${MAX_SUFFIX_LENGTH} characters`,
    });
  });
});

describe('encodeLuiSuffix', () => {
  it('keeps URL characters and percent-encodes the rest as UTF-8', () => {
    expect(encodeLuiSuffix('/0.210831.2033')).toBe('/0.210831.2033');
    expect(encodeLuiSuffix("/a;b=c,d:e@f!$&'()*+~_-?q=1#frag")).toBe("/a;b=c,d:e@f!$&'()*+~_-?q=1#frag");
    expect(encodeLuiSuffix('/a b\r\nLocation: x')).toBe('/a%20b%0D%0ALocation:%20x');
    expect(encodeLuiSuffix('/%2F\\<>"`{}|^[]')).toBe('/%252F%5C%3C%3E%22%60%7B%7D%7C%5E%5B%5D');
    expect(encodeLuiSuffix('/é😀\u0000')).toBe('/%C3%A9%F0%9F%98%80%00');
    expect(encodeLuiSuffix('/\ud800')).toBe('/%EF%BF%BD');
  });
});

describe('resolving with suffix passthrough', () => {
  it('resolves the matching part and appends the suffix to every provider URL, with a trailing luiSuffix', () => {
    const result = answer('dandi:000027/0.210831.2033');
    expect(result.status).toBe(200);
    expect(urls('dandi:000027/0.210831.2033')).toEqual([
      'https://dandiarchive.org/dandiset/000027/0.210831.2033',
      'https://api.example.org/dandisets/000027?format=json/0.210831.2033',
    ]);
    expect(result.body.payload.parsedCompactIdentifier).toMatchObject({
      namespace: 'dandi',
      localId: '000027',
      rawRequest: 'dandi:000027/0.210831.2033',
    });
    expect(Object.keys(result.body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier', 'luiSuffix']);
    expect(result.body.payload.luiSuffix).toBe('/0.210831.2033');
  });

  it('writes the same JSON on the hot path as the presenter', () => {
    for (const raw of ['dandi:000027/0.210831.2033', 'dandi/dandi:000027/x', 'taxonomy:9606/a b', 'dandi:000027']) {
      expect(resolutionJson(resolve(raw))).toBe(JSON.stringify(answer(raw).body));
    }
  });

  it('keeps the provider code filter and the other parse forms', () => {
    expect(urls('api/dandi:000027/draft')).toEqual(['https://api.example.org/dandisets/000027?format=json/draft']);
    expect(urls('dandi/000027/draft')).toEqual([
      'https://dandiarchive.org/dandiset/000027/draft',
      'https://api.example.org/dandisets/000027?format=json/draft',
    ]);
  });

  it('does not split a LUI the pattern already matches, nor one the canonical rules repair', () => {
    const whole = answer('taxonomy:9606');
    expect(whole.body.payload).not.toHaveProperty('luiSuffix');
    expect(Object.keys(whole.body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier']);
    // doi's pattern takes everything after 10.NNNN/, slashes and dots included; it has no passthrough here,
    // but a namespace with it answers a matching LUI exactly as without.
    const withDoi = buildSnapshot(2, sampleNamespaces().map((ns) => ({ ...ns, suffixPassthrough: true })));
    const doi = resolveCompactId('doi:10.1000/182.v2/x', withDoi, { publicRegistryUrl: REGISTRY });
    expect(doi).toMatchObject({ kind: 'resolved', parsedCompactIdentifier: { localId: '10.1000/182.v2/x' } });
    expect(doi).not.toHaveProperty('luiSuffix');
    const padded = resolveCompactId('taxonomy:taxonomy:9606', withDoi, { publicRegistryUrl: REGISTRY });
    expect(padded.kind === 'resolved' && [padded.canonicalCompactIdentifier, padded.luiSuffix]).toEqual(['taxonomy:9606', undefined]);
  });

  it('with the flag off, fails exactly as before', () => {
    const off = answer('dandioff:000027/0.210831.2033');
    expect(off).toEqual({
      status: 400,
      body: {
        apiVersion: '1.0',
        errorMessage:
          "Resolution request 'dandioff:000027/0.210831.2033' is NOT A NAMESPACE; For namespace 'dandioff', provided local ID '000027/0.210831.2033' DOES NOT MATCH local IDs definition pattern '^\\d{6}$'",
        payload: { resolvedResources: null, parsedCompactIdentifier: null },
      },
    });
  });

  it('with the flag on, fails as before when no leading part matches', () => {
    expect(answer('dandi:27/x').body.errorMessage).toBe(
      "Resolution request 'dandi:27/x' is NOT A NAMESPACE; For namespace 'dandi', provided local ID '27/x' DOES NOT MATCH local IDs definition pattern '^\\d{6}$'",
    );
  });

  it('answers hostile suffixes safely', () => {
    // Dot segments would leave the record's path once a browser resolves the URL: refused, saying why.
    const dots = answer('dandi:000027/../../admin');
    expect(dots.status).toBe(400);
    expect(dots.body.errorMessage).toBe(
      "Resolution request 'dandi:000027/../../admin' is NOT A NAMESPACE; For namespace 'dandi', provided local ID '000027/../../admin' DOES NOT MATCH local IDs definition pattern '^\\d{6}$', and what follows its part that does (the suffix) cannot be passed through: it holds a '.' or '..' path segment",
    );
    // CR LF and spaces cannot break out of a Location header or a URL: encoded.
    expect(urls('dandi:000027/x\r\nSet-Cookie: a=b')?.[0]).toBe('https://dandiarchive.org/dandiset/000027/x%0D%0ASet-Cookie:%20a=b');
    // A slash that came encoded is a slash once decoded; a literal percent sign stays literal.
    expect(urls('dandi:000027/a%2Fb')?.[0]).toBe('https://dandiarchive.org/dandiset/000027/a%252Fb');
    const long = answer(`dandi:000027/${'a'.repeat(MAX_SUFFIX_LENGTH)}`);
    expect([long.status, long.body.errorMessage?.endsWith(`it is longer than ${MAX_SUFFIX_LENGTH} characters`)]).toEqual([400, true]);
  });

  it('tries a bounded number of heads with the linear engine on a pattern that backtracks badly', () => {
    recordLuiPatternVerdict(VULNERABLE_PATTERN, 'vulnerable');
    // The longer heads are refused only at their end; the shortest matches.
    const hostile = `${'0'.repeat(224)}${'.a'.repeat(16)}${'/b'.repeat(400)}`;
    const result = answer(`slow:${hostile}`);
    expect(result.status).toBe(200);
    expect(result.body.payload.parsedCompactIdentifier?.localId).toBe('0'.repeat(224));
    expect(answer(`slow:${'a'.repeat(1500)}${'.'.repeat(400)}!`).status).toBe(400);
    expect(answer('slow:abc_12.5/v2').body.payload.luiSuffix).toBe('/v2');
  });

  it('sends a landing page through a synonym with its suffix', () => {
    const withSynonym = buildSnapshot(3, [{ ...dandi(true), synonyms: ['dandiset'] }]);
    const resolved = resolveCompactId('dandiset:000027/draft', withSynonym, { publicRegistryUrl: REGISTRY });
    if (resolved.kind !== 'resolved') throw new Error('expected a resolution');
    expect(landingRequestOf('dandiset:000027/draft', resolved)).toBe('dandi:000027/draft');
  });
});
