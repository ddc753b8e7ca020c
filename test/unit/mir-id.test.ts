import { findNamespaceByMirId, normaliseMirId } from '../../src/core/mir-id.js';
import { aNamespace, aResource } from '../factories/snapshot.factory.js';
import { buildSnapshot } from '../../src/core/registry-snapshot.js';

const snapshot = buildSnapshot(1, [
  aNamespace({
    id: 22,
    prefix: 'go',
    mirId: 'MIR:00000022',
    pattern: '^GO:\\d{7}$',
    resources: [aResource({ id: 90, mirId: 'MIR:00100021', urlPattern: 'https://example.org/{$id}' })],
  }),
]);

describe('normaliseMirId', () => {
  it('writes a plain integer as an eight-digit MIR id', () => {
    expect(normaliseMirId('22')).toBe('MIR:00000022');
    expect(normaliseMirId('+22')).toBe('MIR:00000022');
    expect(normaliseMirId('022')).toBe('MIR:00000022');
    expect(normaliseMirId('-22')).toBe('MIR:-0000022');
  });

  it('keeps anything that is not a number as given', () => {
    expect(normaliseMirId('MIR:00000022')).toBe('MIR:00000022');
    expect(normaliseMirId('09')).toBe('09');
  });

  it('refuses numbers that are not Java ints instead of failing', () => {
    expect(normaliseMirId('1.5')).toBeNull();
    expect(normaliseMirId('0x16')).toBeNull();
    expect(normaliseMirId('1e3')).toBeNull();
    expect(normaliseMirId('99999999999')).toBeNull();
  });
});

describe('findNamespaceByMirId', () => {
  it('finds a namespace by its MIR id, written in full or as a number', () => {
    expect(findNamespaceByMirId('MIR:00000022', snapshot)?.prefix).toBe('go');
    expect(findNamespaceByMirId('22', snapshot)?.prefix).toBe('go');
  });

  it('finds the namespace owning a resource MIR id', () => {
    expect(findNamespaceByMirId('MIR:00100021', snapshot)?.prefix).toBe('go');
  });

  it('finds nothing for a non-integer number, a different case or an unknown id', () => {
    expect(findNamespaceByMirId('1.5', snapshot)).toBeNull();
    expect(findNamespaceByMirId('mir:00000022', snapshot)).toBeNull();
    expect(findNamespaceByMirId('MIR:99999999', snapshot)).toBeNull();
  });
});
