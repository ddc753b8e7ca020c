import { closestPrefixes } from '../../src/core/close-prefixes.js';
import { buildSnapshot } from '../../src/core/registry-snapshot.js';
import { adviseOnFailure } from '../../src/core/resolution-advice.js';
import { resolveCompactId, type UnresolvedReason } from '../../src/core/resolve.js';
import { aNamespace, aResource, sampleNamespaces } from '../factories/snapshot.factory.js';

const OPTIONS = { publicRegistryUrl: 'https://registry.example.org' };

// The sample registry's namespaces with their real sample ids, as the page shows them.
const SAMPLES: Record<string, string> = { taxonomy: '9606', go: '0006915', chebi: '36927', corrdb: '37232' };
const snapshot = buildSnapshot(
  1,
  sampleNamespaces().map((ns) => ({ ...ns, sampleId: SAMPLES[ns.prefix] ?? ns.sampleId })),
);

/** The advice for a request, checking first that it fails for the reason the test is about. */
function adviceFor(raw: string, reason: UnresolvedReason) {
  const resolution = resolveCompactId(raw, snapshot, OPTIONS);
  expect(resolution.kind === 'unresolved' ? resolution.reason : 'resolved').toBe(reason);
  return adviseOnFailure(raw, reason, snapshot, OPTIONS);
}

describe('advice after a LUI its pattern refuses', () => {
  it('names the namespace with its sample as written and its identifiers in plain words', () => {
    const advice = adviceFor('taxonomy:human', 'lui-mismatch');
    expect(advice.namespace).toEqual({ prefix: 'taxonomy', name: 'taxonomy namespace', pattern: '^\\d+$', sample: 'taxonomy:9606', shape: 'numbers' });
    expect(advice.localId).toBe('human');
    expect(advice.repaired).toBeNull();
    expect(advice.closePrefixes).toEqual([]);
  });

  it('writes an embedded namespace\'s sample with the prefix its pattern spells', () => {
    expect(adviceFor('GO:abc', 'lui-mismatch').namespace?.sample).toBe('GO:0006915');
  });

  it('mends a trailing slash, a stray space or a full stop', () => {
    expect(adviceFor('taxonomy:9606/', 'lui-mismatch').repaired).toBe('taxonomy:9606');
    expect(adviceFor('taxonomy: 9606 ', 'lui-mismatch').repaired).toBe('taxonomy:9606');
    expect(adviceFor('taxonomy:9606.', 'lui-mismatch').repaired).toBe('taxonomy:9606');
  });

  it('mends the slash form of an embedded prefix, and applies the canonical rules to what it mended', () => {
    expect(adviceFor('CHEBI/36927', 'lui-mismatch').repaired).toBe('CHEBI:36927');
    expect(adviceFor('go/0006915', 'lui-mismatch').repaired).toBe('GO:0006915');
    expect(adviceFor('go:6915/', 'lui-mismatch').repaired).toBe('GO:0006915');
  });

  it('keeps the provider code in the mended identifier', () => {
    expect(adviceFor('ebi/taxonomy:9606/', 'lui-mismatch').repaired).toBe('ebi/taxonomy:9606');
  });

  it('offers nothing when no mending gives a valid identifier', () => {
    expect(adviceFor('taxonomy:', 'lui-mismatch').repaired).toBeNull();
    expect(adviceFor(`taxonomy:${'/'.repeat(5000)}x`, 'lui-mismatch').repaired).toBeNull();
  });
});

describe('advice after an unknown prefix', () => {
  it('suggests the close prefixes, each with the request written on it when that resolves', () => {
    const advice = adviceFor('taxonmy:9606', 'not-a-compact-id');
    expect(advice.namespace).toBeNull();
    expect(advice.unknownPrefix).toBe('taxonmy');
    expect(advice.closePrefixes[0]).toEqual({ prefix: 'taxonomy', name: 'taxonomy namespace', compactId: 'taxonomy:9606' });
  });

  it('writes the suggestion as the community does, and gives none where the request would not resolve on it', () => {
    expect(adviceFor('goo:0006915', 'not-a-compact-id').closePrefixes).toContainEqual({ prefix: 'go', name: 'go namespace', compactId: 'GO:0006915' });
    expect(adviceFor('taxonmy:human', 'not-a-compact-id').closePrefixes[0]).toEqual({ prefix: 'taxonomy', name: 'taxonomy namespace', compactId: null });
  });

  it('reads the prefix of provider/prefix:lui between the slash and the colon, and a bare word whole', () => {
    expect(adviceFor('ebi/taxonmy:9606', 'not-a-compact-id')).toMatchObject({ unknownPrefix: 'taxonmy', closePrefixes: [{ compactId: 'ebi/taxonomy:9606' }] });
    expect(adviceFor('taxonmy', 'not-a-compact-id')).toMatchObject({ unknownPrefix: 'taxonmy', closePrefixes: [{ prefix: 'taxonomy', compactId: null }] });
    expect(adviceFor(':9606', 'not-a-compact-id')).toMatchObject({ unknownPrefix: '', closePrefixes: [], example: 'taxonomy:9606' });
  });

  it('compares at most 100 characters of a long prefix, and suggests nothing for it', () => {
    expect(adviceFor(`${'taxonomy'.repeat(500)}:9606`, 'not-a-compact-id').closePrefixes).toEqual([]);
  });
});

describe('advice after a provider code no provider has', () => {
  it('lists the namespace\'s codes and mends a code written in another case', () => {
    const advice = adviceFor('NCBI/taxonomy:9606', 'no-provider-with-code');
    expect(advice.providerCodes).toEqual(['ncbi', 'ebi', 'bptl']);
    expect(advice.repaired).toBe('ncbi/taxonomy:9606');
  });

  it('offers the identifier without the code when no code is close', () => {
    expect(adviceFor('nosuch/taxonomy:9606', 'no-provider-with-code').repaired).toBe('taxonomy:9606');
    expect(adviceFor('nosuch/go:6915', 'no-provider-with-code').repaired).toBe('GO:0006915');
  });
});

describe('advice for a namespace without providers', () => {
  it('names the namespace and mends nothing', () => {
    const advice = adviceFor('emptyns:1', 'no-providers');
    expect(advice.namespace?.prefix).toBe('emptyns');
    expect(advice.repaired).toBeNull();
  });
});

describe('the close prefixes', () => {
  const prefixes = ['taxonomy', 'go', 'chebi', 'pubchem.compound', 'pubchem.substance', 'pubmed'];

  it('puts the prefixes starting with the text first, then the nearest by edits', () => {
    expect(closestPrefixes('pubchem', prefixes)).toEqual(['pubchem.compound', 'pubchem.substance']);
    expect(closestPrefixes('PUBMD', prefixes)).toEqual(['pubmed']);
    expect(closestPrefixes('taxnomy', prefixes)).toEqual(['taxonomy']);
  });

  it('suggests nothing for nothing, or for a text no prefix is near', () => {
    expect(closestPrefixes('', prefixes)).toEqual([]);
    expect(closestPrefixes('human', prefixes)).toEqual([]);
  });

  it('stops at the limit', () => {
    const many = Array.from({ length: 20 }, (_, i) => `ns${i}`);
    expect(closestPrefixes('ns', many, 5)).toHaveLength(5);
  });
});

it('runs on a namespace without a sample and with a pattern not put in words', () => {
  const odd = buildSnapshot(2, [aNamespace({ id: 1, prefix: 'odd', pattern: '^(A|B)\\d+$', sampleId: '', resources: [aResource({ id: 1, urlPattern: 'https://x.example.org/{$id}' })] })]);
  const advice = adviseOnFailure('odd:C1', 'lui-mismatch', odd, OPTIONS);
  expect(advice.namespace).toEqual({ prefix: 'odd', name: 'odd namespace', pattern: '^(A|B)\\d+$', sample: null, shape: null });
});
