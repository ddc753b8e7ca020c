import { deriveCanonicalPrefix, parseCompactId } from '../../src/core/compact-id-parser.js';
import { buildSampleSnapshot, DEPRECATION_DATE } from '../factories/snapshot.factory.js';

const snapshot = buildSampleSnapshot();
const parse = (raw: string) => parseCompactId(raw, snapshot);

describe('parseCompactId', () => {
  it('lists the fields in the reference ParsedCompactIdentifier order', () => {
    expect(Object.keys(parse('taxonomy:9606'))).toEqual([
      'providerCode',
      'namespace',
      'localId',
      'rawRequest',
      'namespaceEmbeddedInLui',
      'deprecatedNamespace',
      'renderDeprecatedLanding',
      'namespaceDeprecationDate',
    ]);
  });

  it('reads prefix:lui', () => {
    expect(parse('taxonomy:9606')).toEqual({
      providerCode: null,
      namespace: 'taxonomy',
      localId: '9606',
      rawRequest: 'taxonomy:9606',
      namespaceEmbeddedInLui: false,
      deprecatedNamespace: false,
      renderDeprecatedLanding: false,
      namespaceDeprecationDate: null,
    });
  });

  it('ignores the case of the prefix and answers with the registry prefix', () => {
    expect(parse('Taxonomy:9606')).toMatchObject({ namespace: 'taxonomy', localId: '9606' });
    expect(parse('UNIPROT:P0DP23')).toMatchObject({ namespace: 'uniprot', localId: 'P0DP23' });
  });

  it('reads the old prefix/lui form', () => {
    expect(parse('taxonomy/9606')).toMatchObject({ namespace: 'taxonomy', localId: '9606', providerCode: null });
    expect(parse('Taxonomy/9606')).toMatchObject({ namespace: 'taxonomy', localId: '9606' });
  });

  it('echoes a bare namespace exactly as typed and sets no other field', () => {
    expect(parse('Taxonomy')).toEqual({
      providerCode: null,
      namespace: 'Taxonomy',
      localId: null,
      rawRequest: 'Taxonomy',
      namespaceEmbeddedInLui: false,
      deprecatedNamespace: false,
      renderDeprecatedLanding: false,
      namespaceDeprecationDate: null,
    });
  });

  it('does not flag a bare deprecated namespace as deprecated', () => {
    expect(parse('3dmet')).toMatchObject({ namespace: '3dmet', deprecatedNamespace: false, renderDeprecatedLanding: false });
  });

  it('sets nothing for an unknown bare word or an unknown prefix', () => {
    expect(parse('nothing')).toMatchObject({ namespace: null, localId: null, providerCode: null });
    expect(parse('foo:bar')).toMatchObject({ namespace: null, localId: null, providerCode: null });
  });

  it('keeps the provider code as typed in provider/prefix:lui', () => {
    expect(parse('NCBI/taxonomy:9606')).toMatchObject({ providerCode: 'NCBI', namespace: 'taxonomy', localId: '9606' });
  });

  it('reads provider/prefix/lui', () => {
    expect(parse('ncbi/taxonomy/9606')).toMatchObject({ providerCode: 'ncbi', namespace: 'taxonomy', localId: '9606' });
  });

  it('drops the provider when the rest names no namespace', () => {
    expect(parse('ncbi/foo:9606')).toMatchObject({ providerCode: null, namespace: null, localId: null });
  });

  it('keeps the embedded prefix in the LUI for provider/PREFIX:lui', () => {
    expect(parse('ebi/CHEBI:36927')).toEqual({
      providerCode: 'ebi',
      namespace: 'chebi',
      localId: 'CHEBI:36927',
      rawRequest: 'ebi/CHEBI:36927',
      namespaceEmbeddedInLui: true,
      deprecatedNamespace: false,
      renderDeprecatedLanding: false,
      namespaceDeprecationDate: null,
    });
  });

  it('strips the leading copy of the prefix in the legacy prefix/PREFIX:lui form', () => {
    expect(parse('chebi/CHEBI:36927')).toMatchObject({ providerCode: null, namespace: 'chebi', localId: 'CHEBI:36927' });
  });

  it('reads a provider code that equals a prefix as the legacy prefix/PREFIX form', () => {
    expect(parse('CorrDB/corrdb:37232')).toMatchObject({ providerCode: null, namespace: 'corrdb', localId: '37232' });
  });

  it('keeps slashes and colons inside the LUI', () => {
    expect(parse('doi:10.1038/nbt1156')).toMatchObject({ namespace: 'doi', localId: '10.1038/nbt1156' });
    expect(parse('doi/10.1038/nbt1156')).toMatchObject({ namespace: 'doi', localId: '10.1038/nbt1156', providerCode: null });
    expect(parse('taxonomy:123/123')).toMatchObject({ namespace: 'taxonomy', localId: '123/123' });
    expect(parse('taxonomy/123:123')).toMatchObject({ namespace: 'taxonomy', localId: '123:123' });
  });

  it('keeps a trailing slash as part of the LUI', () => {
    expect(parse('taxonomy:9606/')).toMatchObject({ namespace: 'taxonomy', localId: '9606/' });
  });

  it('gives an empty LUI for prefix: and prefix/', () => {
    expect(parse('uniprot:')).toMatchObject({ namespace: 'uniprot', localId: '' });
    expect(parse('uniprot/')).toMatchObject({ namespace: 'uniprot', localId: '' });
  });

  it('keeps the typed separator in an embedded LUI written with a slash', () => {
    expect(parse('CHEBI/36927')).toMatchObject({ namespace: 'chebi', localId: 'CHEBI/36927' });
    expect(parse('provider/go/0006915')).toMatchObject({ providerCode: 'provider', namespace: 'go', localId: 'go/0006915' });
  });

  it('supports no URN forms', () => {
    expect(parse('urn:miriam:uniprot:P12345')).toMatchObject({ namespace: null, localId: null });
  });

  it('strips the legacy leading prefix copy for a non-embedded namespace too', () => {
    expect(parse('4503/4503:abc')).toMatchObject({ namespace: '4503', localId: 'abc', providerCode: null });
  });

  it('reads a known prefix before a slash as the namespace when the colon part is no prefix', () => {
    expect(parse('taxonomy/foo:9606')).toMatchObject({ namespace: 'taxonomy', localId: 'foo:9606', providerCode: null });
  });

  it('reads a numeric prefix', () => {
    expect(parse('4503:0a1b2c3d-0000-1111-2222-333344445555')).toMatchObject({
      namespace: '4503',
      localId: '0a1b2c3d-0000-1111-2222-333344445555',
    });
    expect(parse('4503')).toMatchObject({ namespace: '4503', localId: null });
  });

  it('copies the deprecation of the namespace', () => {
    expect(parse('3dmet:B00162')).toMatchObject({
      namespace: '3dmet',
      deprecatedNamespace: true,
      renderDeprecatedLanding: true,
      namespaceDeprecationDate: DEPRECATION_DATE,
    });
  });

  it('takes an empty provider code from a leading slash', () => {
    expect(parse('/taxonomy:9606')).toMatchObject({ providerCode: '', namespace: 'taxonomy', localId: '9606' });
  });

  describe('embedded prefix re-casing (improvement)', () => {
    it('re-cases the embedded prefix to the spelling of the pattern', () => {
      expect(parse('chebi:36927')).toMatchObject({ namespace: 'chebi', localId: 'CHEBI:36927', rawRequest: 'chebi:36927' });
      expect(parse('go:0006915')).toMatchObject({ namespace: 'go', localId: 'GO:0006915' });
      expect(parse('Go:0006915')).toMatchObject({ localId: 'GO:0006915' });
    });

    it('re-cases the legacy and provider forms too', () => {
      expect(parse('chebi/chebi:36927')).toMatchObject({ localId: 'CHEBI:36927' });
      expect(parse('ebi/chebi:36927')).toMatchObject({ providerCode: 'ebi', localId: 'CHEBI:36927' });
    });

    it('re-cases towards a lower-case pattern', () => {
      expect(parse('DID:example:123abc')).toMatchObject({ namespace: 'did', localId: 'did:example:123abc' });
    });

    it('leaves a LUI the reference accepts unchanged', () => {
      expect(parse('CHEBI:36927')).toMatchObject({ localId: 'CHEBI:36927' });
      expect(parse('did:example:123abc')).toMatchObject({ localId: 'did:example:123abc' });
    });

    it('leaves the LUI as typed when re-casing does not make it valid', () => {
      expect(parse('chebi:abc')).toMatchObject({ localId: 'chebi:abc' });
      expect(parse('go:123')).toMatchObject({ localId: 'go:123' });
    });

    it('does not re-case a slash-separated embedded LUI', () => {
      expect(parse('chebi/36927')).toMatchObject({ localId: 'chebi/36927' });
    });
  });
});

describe('deriveCanonicalPrefix', () => {
  it('reads the literal prefix a pattern starts with', () => {
    expect(deriveCanonicalPrefix('^GO:\\d{7}$', 'go')).toBe('GO');
    expect(deriveCanonicalPrefix('^CHEBI:\\d+$', 'chebi')).toBe('CHEBI');
    expect(deriveCanonicalPrefix('^VariO:\\d+$', 'vario')).toBe('VariO');
    expect(deriveCanonicalPrefix('^GO_REF:\\d{7}$', 'go_ref')).toBe('GO_REF');
    expect(deriveCanonicalPrefix('^(ark\\:)/*[0-9A-Za-z]+$', 'ark')).toBe('ark');
  });

  it('gives up when the prefix is not plain literals followed by a colon', () => {
    expect(deriveCanonicalPrefix('^(P)?EO\\:\\d{7}$', 'eo')).toBeNull();
    expect(deriveCanonicalPrefix('^GO?:\\d{7}$', 'go')).toBeNull();
    expect(deriveCanonicalPrefix('^GO_\\d{7}$', 'go')).toBeNull();
    expect(deriveCanonicalPrefix('^\\d+$', 'go')).toBeNull();
    expect(deriveCanonicalPrefix('^FMA:\\d+$', 'go')).toBeNull();
  });
});
