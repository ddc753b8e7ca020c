import { writtenCompactId } from '../../src/core/lui-prefix.js';

const ns = (prefix: string, pattern: string, sampleId: string, namespaceEmbeddedInLui: boolean) => ({ prefix, pattern, sampleId, namespaceEmbeddedInLui });

describe('a compact identifier as its community writes it', () => {
  it('is prefix:id for most namespaces, and the LUI itself, spelled as the pattern spells it, where the LUI embeds the prefix', () => {
    expect(writtenCompactId(ns('taxonomy', '^\\d+$', '9606', false), '9606')).toBe('taxonomy:9606');
    expect(writtenCompactId(ns('go', '^GO:\\d{7}$', '0006915', true), '0006915')).toBe('GO:0006915');
    expect(writtenCompactId(ns('chebi', '^CHEBI:\\d+$', '36927', true), '36927')).toBe('CHEBI:36927');
    // No single spelling in the pattern: the one that makes the sample valid.
    expect(writtenCompactId(ns('eo', '^(P)?EO\\:\\d{7}$', '0007404', true), '0007404')).toBe('EO:0007404');
  });

  it('does not repeat a prefix the id already carries', () => {
    expect(writtenCompactId(ns('go', '^GO:\\d{7}$', '0006915', true), 'GO:0006915')).toBe('GO:0006915');
    expect(writtenCompactId(ns('did', '^did:[a-z0-9]+:[A-Za-z0-9.\\-:]+$', 'sov:x', true), 'sov:WRfX')).toBe('did:sov:WRfX');
  });

});
