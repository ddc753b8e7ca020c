import { resolveCompactId } from '../../src/core/resolve.js';
import { presentResolution, resolutionJson as serializeResolveResult } from '../../src/resolver/resolution.presenter.js';
import { buildSampleSnapshot } from '../factories/snapshot.factory.js';

const snapshot = buildSampleSnapshot();
const options = { publicRegistryUrl: 'https://registry.example.org' };

describe('the JSON text of a resolution', () => {
  // Every namespace's own sample, provider forms, misses, bare prefixes and odd characters.
  const identifiers = [
    ...[...snapshot.namespacesByPrefix.values()].flatMap((ns) => [
      `${ns.prefix}:${ns.sampleId}`,
      ns.prefix,
      `${ns.prefix}:${ns.sampleId}"\\<x>`,
      ...ns.resources.filter((r) => r.providerCode).map((r) => `${r.providerCode}/${ns.prefix}:${ns.sampleId}`),
    ]),
    'taxonomy:9606',
    'ebi/CHEBI:36927',
    'chebi:36927',
    'nope:1',
    'taxonomy:abc',
  ];

  it.each(identifiers)('is exactly what JSON.stringify writes for %s', (raw) => {
    const result = resolveCompactId(raw, snapshot, options);
    expect(serializeResolveResult(result)).toBe(JSON.stringify(presentResolution(result).body));
  });

  it('stays exact when the same resource is resolved again with another identifier', () => {
    const first = resolveCompactId('taxonomy:9606', snapshot, options);
    serializeResolveResult(first);
    const second = resolveCompactId('taxonomy:10090', snapshot, options);
    expect(serializeResolveResult(second)).toBe(JSON.stringify(presentResolution(second).body));
    expect(serializeResolveResult(second)).toContain('10090');
  });
});
