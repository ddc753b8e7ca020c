import {
  applyLuiRules,
  canonicalLocalId,
  deriveLuiRules,
  fixedWidthDigits,
  lettersAccepted,
  readLuiRules,
  snapshotLuiRules,
} from '../../src/core/lui-rules.js';
import { buildSnapshot } from '../../src/core/registry-snapshot.js';
import { resolveCompactId } from '../../src/core/resolve.js';
import { presentResolution, resolutionJson } from '../../src/resolver/resolution.presenter.js';
import { buildSampleSnapshot, sampleNamespaces } from '../factories/snapshot.factory.js';

const REGISTRY = 'https://registry.example.org';
const snapshot = buildSampleSnapshot();
const resolve = (raw: string, on = snapshot) => resolveCompactId(raw, on, { publicRegistryUrl: REGISTRY });
const answer = (raw: string, on = snapshot) => presentResolution(resolve(raw, on));

describe('deriveLuiRules', () => {
  it('respells, folds and pads an embedded namespace with a fixed-width pattern', () => {
    expect(deriveLuiRules({ prefix: 'go', pattern: '^GO:\\d{7}$' })).toEqual({
      luiPrefix: 'GO',
      stripPrefix: true,
      fold: 'upper',
      zeroPad: { head: 'GO:', width: 7 },
    });
  });

  it('only drops the prefix copy where the pattern says nothing about letters or width', () => {
    expect(deriveLuiRules({ prefix: 'taxonomy', pattern: '^\\d+$' })).toEqual({ stripPrefix: true });
  });

  it('folds to the one case the pattern accepts', () => {
    expect(deriveLuiRules({ prefix: 'uniprot', pattern: '^([A-N,R-Z][0-9]([A-Z][A-Z, 0-9][A-Z, 0-9][0-9]){1,2})$' }).fold).toBe('upper');
    expect(deriveLuiRules({ prefix: 'ark', pattern: '^ark\\:[a-z0-9]+$' })).toMatchObject({ luiPrefix: 'ark', fold: 'lower' });
    expect(deriveLuiRules({ prefix: 'pdb', pattern: '^[0-9][A-Za-z0-9]{3}$' }).fold).toBeUndefined();
  });

  it('keeps the prefix when the pattern itself may take it with a colon (vgnc)', () => {
    expect(deriveLuiRules({ prefix: 'vgnc', pattern: '^((VGNC|vgnc):)?\\d{1,9}$' }).stripPrefix).toBeUndefined();
    expect(deriveLuiRules({ prefix: 'dip', pattern: '^DIP(\\:)?\\-\\d{1,}[ENXS]$' }).stripPrefix).toBeUndefined();
    // The prefix spelt without a colon is part of the LUI's text, not a prefix copy.
    expect(deriveLuiRules({ prefix: 'chembl', pattern: '^CHEMBL\\d+$' }).stripPrefix).toBe(true);
  });

  it('gives no prefix spelling when the pattern does not start with the prefix as literals', () => {
    expect(deriveLuiRules({ prefix: 'eo', pattern: '^(P)?EO\\:\\d{7}$' })).toEqual({ fold: 'upper' });
  });
});

describe('lettersAccepted', () => {
  it.each([
    ['^\\d+$', 'none'],
    ['^[A-Z]+\\d+$', 'upper'],
    ['^[a-f0-9]{8}$', 'lower'],
    ['^CHEBI:\\d+$', 'upper'],
    ['^VariO:\\d+$', 'both'],
    ['^\\w+$', 'both'],
    ['^[^:]+$', 'both'],
    ['^.+$', 'both'],
    ['^(?i)[A-Z]+$', 'both'],
    ['^[A-z]+$', 'both'],
    ['^(?<id>[A-Z]+)$', 'upper'],
    ['^[A-Z\\d\\-]+$', 'upper'],
    ['^\\p{Lu}+$', 'both'],
  ])('%s accepts %s', (pattern, cases) => {
    expect(lettersAccepted(pattern)).toBe(cases);
  });
});

describe('fixedWidthDigits', () => {
  it.each([
    ['^GO:\\d{7}$', { head: 'GO:', width: 7 }],
    ['^\\d{7}$', { head: '', width: 7 }],
    ['^IPR\\d{6}$', { head: 'IPR', width: 6 }],
    ['^FOODON:[0-9]{8}$', { head: 'FOODON:', width: 8 }],
    ['^(MIR\\:\\d{8})$', { head: 'MIR:', width: 8 }],
    ['^\\d+$', null],
    ['^\\d{1,9}$', null],
    ['^(P)?EO\\:\\d{7}$', null],
    ['^GO?:\\d{7}$', null],
    ['^A1\\d{3}$', null],
    ['^\\d{7}-\\d$', null],
    ['^\\d$', null],
  ])('%s gives %j', (pattern, expected) => {
    expect(fixedWidthDigits(pattern)).toEqual(expected);
  });
});

describe('applyLuiRules', () => {
  const go = deriveLuiRules({ prefix: 'go', pattern: '^GO:\\d{7}$' });

  it('is the identity on a canonical LUI', () => {
    expect(applyLuiRules(go, 'go', 'GO:0006915')).toBe('GO:0006915');
    expect(applyLuiRules({ stripPrefix: true }, 'taxonomy', '9606')).toBe('9606');
  });

  it('drops a doubled prefix, respells, folds and pads, in that order', () => {
    expect(applyLuiRules(go, 'go', 'go:GO:0006915')).toBe('GO:0006915');
    expect(applyLuiRules(go, 'go', 'go:go:6915')).toBe('GO:0006915');
    expect(applyLuiRules(go, 'go', 'Go:6915')).toBe('GO:0006915');
    expect(applyLuiRules({ stripPrefix: true }, 'taxonomy', 'TAXONOMY:9606')).toBe('9606');
  });

  it('folds only ASCII letters', () => {
    expect(applyLuiRules({ fold: 'upper' }, 'x', 'straße')).toBe('STRAßE');
  });

  it('pads only a head followed by digits alone, and never an empty LUI', () => {
    expect(applyLuiRules(go, 'go', 'GO:')).toBe('GO:');
    expect(applyLuiRules(go, 'go', 'GO:6915/')).toBe('GO:6915/');
    expect(applyLuiRules({ zeroPad: { head: '', width: 5 } }, 'x', '')).toBe('');
    expect(applyLuiRules({ zeroPad: { head: '', width: 5 } }, 'x', '12')).toBe('00012');
  });
});

describe('canonicalLocalId', () => {
  const chebi = { prefix: 'chebi', pattern: '^CHEBI:\\d+$', luiRules: deriveLuiRules({ prefix: 'chebi', pattern: '^CHEBI:\\d+$' }) };

  it('answers the canonical LUI only when it matches the pattern', () => {
    expect(canonicalLocalId(chebi, 'chebi:CHEBI:36927')).toBe('CHEBI:36927');
    expect(canonicalLocalId(chebi, 'chebi:CHEBI:abc')).toBeNull();
    expect(canonicalLocalId(chebi, 'CHEBI:36927/')).toBeNull();
  });

  it('answers null without rules, and when the rules change nothing', () => {
    expect(canonicalLocalId({ ...chebi, luiRules: null }, 'chebi:CHEBI:36927')).toBeNull();
    expect(canonicalLocalId(chebi, 'XYZ')).toBeNull();
  });
});

describe('snapshotLuiRules', () => {
  it('derives when nothing is stored, keeps stored rules, and is null when no rule applies', () => {
    expect(snapshotLuiRules(null, { prefix: 'taxonomy', pattern: '^\\d+$' })).toEqual({ stripPrefix: true });
    expect(snapshotLuiRules({ fold: 'lower' }, { prefix: 'taxonomy', pattern: '^\\d+$' })).toEqual({ fold: 'lower' });
    expect(snapshotLuiRules({}, { prefix: 'taxonomy', pattern: '^\\d+$' })).toBeNull();
  });
});

describe('readLuiRules', () => {
  it('keeps the known rules', () => {
    expect(readLuiRules({ stripPrefix: true, luiPrefix: 'GO', fold: 'upper', zeroPad: { head: 'GO:', width: 7 } })).toEqual({
      rules: { stripPrefix: true, luiPrefix: 'GO', fold: 'upper', zeroPad: { head: 'GO:', width: 7 } },
    });
    expect(readLuiRules({ stripPrefix: false })).toEqual({ rules: {} });
  });

  it.each([
    [[], "'luiRules' must be an object of rules, or null"],
    [{ trim: true }, "'luiRules.trim' is not a rule (stripPrefix, luiPrefix, fold, zeroPad)"],
    [{ fold: 'title' }, `'luiRules.fold' must be "upper" or "lower"`],
    [{ stripPrefix: 'yes' }, "'luiRules.stripPrefix' must be true or false"],
    [{ luiPrefix: 'G O' }, "'luiRules.luiPrefix' must be the prefix as the LUI spells it (letters, digits, '.', '_', '-')"],
    [{ zeroPad: { head: 'GO:', width: 1 } }, `'luiRules.zeroPad' must be {"head": "<text before the digits>", "width": <2 to 64>}`],
    [{ zeroPad: { width: 7, pad: '0' } }, `'luiRules.zeroPad' must be {"head": "<text before the digits>", "width": <2 to 64>}`],
  ])('refuses %j', (value, error) => {
    expect(readLuiRules(value)).toEqual({ error });
  });
});

describe('resolution with canonical LUIs', () => {
  it('resolves a doubled embedded prefix as the canonical compact identifier, which the answer echoes last', () => {
    const result = answer('chebi:CHEBI:36927');
    expect(result.status).toBe(200);
    expect(Object.keys(result.body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier', 'canonicalCompactIdentifier']);
    expect(result.body.payload.canonicalCompactIdentifier).toBe('CHEBI:36927');
    expect(result.body.payload.parsedCompactIdentifier).toMatchObject({ namespace: 'chebi', localId: 'CHEBI:36927', rawRequest: 'chebi:CHEBI:36927' });
    const canonical = answer('CHEBI:36927');
    expect(result.body.payload.resolvedResources).toEqual(canonical.body.payload.resolvedResources);
  });

  it('writes the same text on the hot path as the object gives', () => {
    for (const raw of ['chebi:CHEBI:36927', 'go:6915', 'taxonomy:taxonomy:9606', 'ncbi/uniprot:p0dp23', 'CHEBI:36927']) {
      const resolution = resolve(raw);
      expect(resolutionJson(resolution)).toBe(JSON.stringify(presentResolution(resolution).body));
    }
    expect(resolutionJson(resolve('go:6915'))).toContain(
      `,"parsedCompactIdentifier":${JSON.stringify(answer('go:6915').body.payload.parsedCompactIdentifier)},"canonicalCompactIdentifier":"GO:0006915"}}`,
    );
  });

  it.each([
    ['taxonomy:taxonomy:9606', 'taxonomy:9606'],
    ['go:go:0006915', 'GO:0006915'],
    ['go:6915', 'GO:0006915'],
    ['GO:6915', 'GO:0006915'],
    ['uniprot:p0dp23', 'uniprot:P0DP23'],
    ['3dmet:b00162', '3dmet:B00162'],
  ])('resolves %s as %s, to the providers of the canonical form', (raw, canonical) => {
    const result = answer(raw);
    expect(result.status).toBe(200);
    expect(result.body.payload.canonicalCompactIdentifier).toBe(canonical);
    expect(result.body.payload.resolvedResources).toEqual(answer(canonical).body.payload.resolvedResources);
  });

  it('keeps the provider code of the request', () => {
    const result = answer('ncbi/uniprot:p0dp23');
    expect(result.body.payload.parsedCompactIdentifier).toMatchObject({ providerCode: 'ncbi', localId: 'P0DP23' });
    expect(result.body.payload.canonicalCompactIdentifier).toBe('uniprot:P0DP23');
  });

  it('adds nothing to an answer the LUI as typed already gives', () => {
    for (const raw of ['taxonomy:9606', 'CHEBI:36927', 'go:0006915', 'chebi/CHEBI:36927', 'uniprot:P0DP23', 'taxonomy']) {
      const result = answer(raw);
      expect(result.status).toBe(200);
      expect(Object.keys(result.body.payload)).toEqual(['resolvedResources', 'parsedCompactIdentifier']);
    }
  });

  it('keeps the reference 400, message and all, where the canonical form is not valid either', () => {
    const withoutRules = buildSnapshot(1, sampleNamespaces().map((ns) => ({ ...ns, luiRules: null })));
    for (const raw of ['taxonomy:9606/', 'chebi:CHEBI:36927/', 'CHEBI/36927', 'go:123456789', 'uniprot:', 'taxonomy:abc', 'foo:bar']) {
      const result = answer(raw);
      expect({ raw, status: result.status }).toEqual({ raw, status: 400 });
      expect(result).toEqual(answer(raw, withoutRules));
    }
  });

  it('follows the rules the snapshot holds: none, or a curator\u2019s', () => {
    const namespaces = sampleNamespaces().map((ns) => (ns.prefix === 'taxonomy' ? { ...ns, luiRules: null } : ns));
    expect(answer('taxonomy:taxonomy:9606', buildSnapshot(1, namespaces)).status).toBe(400);
    const padded = sampleNamespaces().map((ns) => (ns.prefix === 'taxonomy' ? { ...ns, luiRules: { zeroPad: { head: '', width: 6 } } } : ns));
    expect(answer('taxonomy:9606', buildSnapshot(1, padded)).body.payload).not.toHaveProperty('canonicalCompactIdentifier');
    expect(answer('taxonomy:taxonomy:9606', buildSnapshot(1, padded)).status).toBe(400);
  });
});
