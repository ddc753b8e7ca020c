import { chooseBestProvider } from '../../src/core/best-provider.js';
import { resolveCompactId } from '../../src/core/resolve.js';
import { presentResolution } from '../../src/resolver/resolution.presenter.js';
import { buildSampleSnapshot } from '../factories/snapshot.factory.js';

const snapshot = buildSampleSnapshot();

function bestFor(raw: string) {
  const { status, body } = presentResolution(resolveCompactId(raw, snapshot, { publicRegistryUrl: 'https://registry.example.org' }));
  expect(status).toBe(200);
  const { resolvedResources, parsedCompactIdentifier } = body.payload;
  if (resolvedResources === null || parsedCompactIdentifier === null) throw new Error('resolution carried no payload');
  return chooseBestProvider(resolvedResources, parsedCompactIdentifier);
}

let nextId = 1;
function candidate(index: number, url: string, flags: Partial<{ deprecatedResource: boolean; renderDeprecatedLanding: boolean }> = {}) {
  return {
    id: nextId++,
    compactIdentifierResolvedUrl: url,
    recommendation: { recommendationIndex: index, recommendationExplanation: '' },
    deprecatedResource: false,
    renderDeprecatedLanding: false,
    protectedUrls: false,
    renderProtectedLanding: false,
    ...flags,
  };
}

const parsedFor = (deprecatedNamespace: boolean, renderDeprecatedLanding = false) => ({
  rawRequest: 'x:1',
  deprecatedNamespace,
  renderDeprecatedLanding,
});

describe('chooseBestProvider', () => {
  it('redirects to the resource with the highest recommendation index', () => {
    expect(bestFor('taxonomy:9606')).toEqual({
      kind: 'provider',
      url: 'https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?mode=Info&id=9606',
    });
    expect(bestFor('CHEBI:36927')).toEqual({ kind: 'provider', url: 'https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927' });
  });

  it('keeps dataset order between resources with the same index', () => {
    const resources = [candidate(20, 'https://a/'), candidate(75, 'https://b/'), candidate(75, 'https://c/')];
    expect(chooseBestProvider(resources, parsedFor(false))).toEqual({ kind: 'provider', url: 'https://b/' });
  });

  it('redirects a bare namespace to its registry page', () => {
    expect(bestFor('Taxonomy')).toEqual({ kind: 'provider', url: 'https://registry.example.org/registry/taxonomy' });
  });

  describe('deprecated namespace', () => {
    it('shows the deprecation landing page when the namespace asks for it', () => {
      expect(bestFor('3dmet:B00162')).toEqual({ kind: 'deprecated-landing' });
    });

    it('redirects to the first resource when no landing page is asked for', () => {
      expect(bestFor('oldns:1')).toEqual({ kind: 'provider', url: 'https://first.example.org/1' });
    });

    it('considers deprecated resources and their own landing flag', () => {
      const resources = [
        candidate(10, 'https://live/'),
        candidate(50, 'https://dead/', { deprecatedResource: true, renderDeprecatedLanding: true }),
      ];
      expect(chooseBestProvider(resources, parsedFor(true))).toEqual({ kind: 'deprecated-landing' });
      const withoutLanding = [candidate(10, 'https://live/'), candidate(50, 'https://dead/', { deprecatedResource: true })];
      expect(chooseBestProvider(withoutLanding, parsedFor(true))).toEqual({ kind: 'provider', url: 'https://dead/' });
    });
  });

  describe('active namespace', () => {
    it('drops deprecated resources when a live one exists', () => {
      expect(bestFor('ec-code:1.1.1.1')).toEqual({
        kind: 'provider',
        url: 'https://www.ebi.ac.uk/intenz/query?cmd=SearchEC&ec=1.1.1.1',
      });
    });

    it('keeps deprecated resources when all are deprecated, and honours their landing flag', () => {
      // Both score 0, so the first in dataset order is chosen; it has no landing page.
      expect(bestFor('mesh.2012:1')).toEqual({ kind: 'provider', url: 'https://a.example.org/1' });
      const resources = [
        candidate(0, 'https://a/', { deprecatedResource: true }),
        candidate(5, 'https://b/', { deprecatedResource: true, renderDeprecatedLanding: true }),
      ];
      expect(chooseBestProvider(resources, parsedFor(false))).toEqual({ kind: 'deprecated-landing' });
    });

    it('shows the protected landing page for a protected best resource', () => {
      expect(bestFor('protectedns:1')).toEqual({ kind: 'protected-landing' });
    });

    it('redirects to a protected resource that does not ask for the landing page', () => {
      const resources = [{ ...candidate(80, 'https://vault/'), protectedUrls: true }];
      expect(chooseBestProvider(resources, parsedFor(false))).toEqual({ kind: 'provider', url: 'https://vault/' });
    });
  });

  describe('providers whose sample URL has been not_found for days', () => {
    it('never redirects to a failing provider while a healthy one exists, whatever its index', () => {
      const failing = candidate(75, 'https://failing/');
      const healthy = candidate(20, 'https://healthy/');
      const other = candidate(20, 'https://other/');
      expect(chooseBestProvider([failing, healthy, other], parsedFor(false), new Set([failing.id]))).toEqual({
        kind: 'provider',
        url: 'https://healthy/',
      });
    });

    it('redirects to the best failing provider when every provider fails', () => {
      const a = candidate(20, 'https://a/');
      const b = candidate(75, 'https://b/');
      expect(chooseBestProvider([a, b], parsedFor(false), new Set([a.id, b.id]))).toEqual({ kind: 'provider', url: 'https://b/' });
    });

    it('keeps the usual choice when the best provider is not failing', () => {
      const a = candidate(20, 'https://a/');
      const b = candidate(75, 'https://b/');
      expect(chooseBestProvider([a, b], parsedFor(false), new Set([a.id]))).toEqual({ kind: 'provider', url: 'https://b/' });
    });

    it('prefers a live provider that is failing over a deprecated one in an active namespace', () => {
      const live = candidate(20, 'https://live/');
      const dead = candidate(75, 'https://dead/', { deprecatedResource: true });
      expect(chooseBestProvider([live, dead], parsedFor(false), new Set([live.id]))).toEqual({ kind: 'provider', url: 'https://live/' });
    });
  });

  it('fails with the reference message when there is no resource', () => {
    expect(chooseBestProvider([], parsedFor(false))).toEqual({ kind: 'failed', errorMessage: 'Zero resources were found for x:1' });
  });
});
