import { buildSnapshot } from '../../src/core/registry-snapshot.js';
import { buildReverseIndex, findLongestKey, normalizeReverseUrl } from '../../src/core/reverse-index.js';
import {
  buildReverseSnapshot,
  reverseNamespace,
  reverseNamespaces,
  reverseResource,
} from '../factories/reverse-snapshot.factory.js';

describe('normalizeReverseUrl', () => {
  it('drops the scheme, www. and one trailing slash as the reference does', () => {
    expect(normalizeReverseUrl('https://www.ncbi.nlm.nih.gov/gene/100010/')).toBe('ncbi.nlm.nih.gov/gene/100010');
    expect(normalizeReverseUrl('http://pubmed.ncbi.nlm.nih.gov/1//')).toBe('pubmed.ncbi.nlm.nih.gov/1/');
  });

  it('treats the scheme, www. and the host case-insensitively but keeps the path as written', () => {
    expect(normalizeReverseUrl('HTTPS://WWW.NCBI.nlm.nih.gov/Gene/ABC')).toBe('ncbi.nlm.nih.gov/Gene/ABC');
    expect(normalizeReverseUrl('Http://Example.ORG?Id=X')).toBe('example.org?Id=X');
  });

  it('leaves URLs with another scheme untouched apart from the trailing slash', () => {
    expect(normalizeReverseUrl('ftp://FTP.example.org/a/')).toBe('ftp://FTP.example.org/a');
  });
});

describe('buildReverseIndex', () => {
  it('indexes only active resources of active namespaces', () => {
    const index = buildReverseIndex(buildReverseSnapshot());
    const indexed = index.entries.map((e) => `${e.prefix}/${e.resourceId}`);
    expect(indexed).not.toContain('oldgene/991');
    expect(indexed).not.toContain('pubmed/32');
    expect(indexed).toContain('pubmed/31');
  });

  it('orders entries by prefix, then resource id, whatever the snapshot order', () => {
    const forward = buildReverseIndex(buildReverseSnapshot());
    const backward = buildReverseIndex(buildSnapshot(1, reverseNamespaces().reverse()));
    const order = (index: typeof forward) => index.entries.map((e) => `${e.prefix}/${e.resourceId}/${e.rank}`);
    expect(order(backward)).toEqual(order(forward));
    expect(forward.entries.map((e) => e.prefix)).toEqual([
      'bigg.compartment',
      'chebi',
      'chebi',
      'go_ref',
      'kegg.compound',
      'kegg.drug',
      'lrg',
      'mir',
      'miriam.resource',
      'ncbigene',
      'pubmed',
      'taxonomy',
      'uniprot',
      'uniprot.any',
    ]);
  });

  it('keeps the text after the placeholder so that it can be dropped from an id', () => {
    const index = buildReverseIndex(buildReverseSnapshot());
    const group = findLongestKey(index, 'ftp.ebi.ac.uk/pub/databases/lrgex/LRG_1.xml', 100);
    expect(group?.key).toBe('ftp.ebi.ac.uk/pub/databases/lrgex/');
    expect(group?.candidates[0]?.suffix).toBe('.xml');
  });

  it('also indexes an embedded namespace under its key without the trailing PREFIX:', () => {
    const index = buildReverseIndex(buildReverseSnapshot());
    const full = findLongestKey(index, 'ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:36927', 100);
    const short = findLongestKey(index, 'ebi.ac.uk/chebi/searchId.do?chebiId=chebi:36927', 100);
    expect(full?.key).toBe('ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:');
    expect(short?.key).toBe('ebi.ac.uk/chebi/searchId.do?chebiId=');
    expect(short?.candidates[0]?.templateParts).toEqual(['ebi.ac.uk/chebi/searchId.do?chebiId=', '']);
  });

  it('reads the LUI prefix of an embedded namespace from its pattern, in the pattern’s case', () => {
    const snapshot = buildSnapshot(1, [
      reverseNamespace(1, 'eo', '^(P)?EO\\:\\d{7}$', [reverseResource(1, 'https://eo.example.org/EO:{$id}')], {
        namespaceEmbeddedInLui: true,
      }),
      reverseNamespace(2, 'vario', '^VariO:\\d+$', [reverseResource(2, 'https://v.example.org/VariO_{$id}')], {
        namespaceEmbeddedInLui: true,
      }),
      reverseNamespace(3, 'plain', '^\\d+$', [reverseResource(3, 'https://p.example.org/{$id}')]),
    ]);
    const prefixes = buildReverseIndex(snapshot).entries.map((e) => [e.prefix, e.luiPrefix]);
    expect(prefixes).toEqual([
      ['eo', 'EO:'],
      ['plain', ''],
      ['vario', 'VariO:'],
    ]);
  });

  it('groups namespaces that share a key in rank order', () => {
    const index = buildReverseIndex(buildSnapshot(1, reverseNamespaces().reverse()));
    const group = findLongestKey(index, 'kegg.jp/entry/C00001', 100);
    expect(group?.candidates.map((c) => c.entry.prefix)).toEqual(['kegg.compound', 'kegg.drug']);
  });

  it('skips patterns without a placeholder and never indexes an empty key', () => {
    const snapshot = buildSnapshot(1, [
      reverseNamespace(1, 'noid', '^\\d+$', [reverseResource(1, 'https://noid.example.org/')]),
      reverseNamespace(2, 'hostonly', '^\\S+$', [reverseResource(2, 'https://{$id}')]),
    ]);
    const index = buildReverseIndex(snapshot);
    expect(index.entries.map((e) => e.prefix)).toEqual(['hostonly']);
    expect(index.keyCount).toBe(0);
    expect(findLongestKey(index, 'anything.example.org/1', 100)).toBeUndefined();
  });
});

describe('findLongestKey', () => {
  const index = buildReverseIndex(buildReverseSnapshot());

  it('prefers the longest key that starts the URL', () => {
    expect(findLongestKey(index, 'uniprot.org/uniprotkb/P0DP23/entry', 100)?.key).toBe('uniprot.org/uniprotkb/');
    expect(findLongestKey(index, 'uniprot.org/other/P0DP23', 100)?.key).toBe('uniprot.org/');
  });

  it('ignores keys longer than the limit', () => {
    expect(findLongestKey(index, 'uniprot.org/uniprotkb/P0DP23', 'uniprot.org/'.length)?.key).toBe('uniprot.org/');
    expect(findLongestKey(index, 'uniprot.org/uniprotkb/P0DP23', 5)).toBeUndefined();
  });

  it('finds keys that end inside the host', () => {
    const hostKeyed = buildReverseIndex(
      buildSnapshot(1, [reverseNamespace(1, 'sub', '^\\w+$', [reverseResource(1, 'https://data.example.org{$id}')])]),
    );
    expect(findLongestKey(hostKeyed, 'data.example.org/x1', 100)?.key).toBe('data.example.org');
  });

  it('finds nothing for an unknown host', () => {
    expect(findLongestKey(index, 'unknown.example.org/gene/1', 100)).toBeUndefined();
  });
});
