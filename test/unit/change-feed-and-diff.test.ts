import { decodeCursor, encodeCursor, FEED_START } from '../../src/registry/model/change-cursor.js';
import { diffDatasets, type DatasetPayload } from '../../src/dataset/dataset-diff.js';
import { daysBefore, isCalendarDate } from '../../src/lib/calendar-date.js';

describe('the change feed cursor', () => {
  it('reads back what it wrote, and an absent or empty one is the start of the feed', () => {
    const cursor = { txid: '745', version: '123' };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(undefined)).toEqual(FEED_START);
    expect(decodeCursor('')).toEqual(FEED_START);
  });

  it('refuses text it never wrote, with the message the client sees', () => {
    const wrong = [
      '123',
      Buffer.from('v2.1.2').toString('base64url'),
      Buffer.from('v1.1.2.3').toString('base64url'),
      Buffer.from('v1.-1.2').toString('base64url'),
      `${encodeCursor({ txid: '1', version: '2' })}=`,
      'A'.repeat(81),
    ];
    for (const text of wrong) expect(() => decodeCursor(text)).toThrow(/'since' must be a cursor this feed gave out/);
    expect(() => decodeCursor(Buffer.from(`v1.${2n ** 63n}.1`).toString('base64url'))).toThrow(/not a position of this feed/);
  });
});

describe('calendar dates', () => {
  it('takes real dates only', () => {
    expect(['2026-01-01', '2024-02-29'].map(isCalendarDate)).toEqual([true, true]);
    expect(['2026-02-29', '2026-13-01', '2026-1-01', ' 2026-01-01', ''].map(isCalendarDate)).toEqual([false, false, false, false, false]);
    expect(daysBefore(new Date('2026-03-01T00:30:00Z'), 1)).toBe('2026-02-28');
  });
});

describe('the dataset diff', () => {
  const resource = (mirId: string, extra: Record<string, unknown> = {}) => ({
    id: 1, mirId, name: `Provider ${mirId}`, providerCode: 'p', institution: { id: 1, name: 'Institute', location: { countryCode: 'GB' } }, ...extra,
  });
  const namespace = (prefix: string, resources: object[], extra: Record<string, unknown> = {}) => ({ id: 1, prefix, mirId: `MIR:${prefix}`, name: prefix, resources, ...extra });
  const payload = (...namespaces: object[]) => ({ namespaces }) as unknown as DatasetPayload;

  it('matches namespaces by prefix and resources by MIR id, nested fields leaf by leaf', () => {
    const from = payload(namespace('a', [resource('R1'), resource('R2')]), namespace('gone', []));
    const to = payload(
      namespace('a', [resource('R1', { institution: { id: 1, name: 'Renamed institute', location: { countryCode: 'FR' } } })], { name: 'A' }),
      namespace('b', [resource('R2'), resource('R3')]),
    );

    expect(diffDatasets(from, to)).toEqual({
      namespaces: {
        added: [{ prefix: 'b', mirId: 'MIR:b', name: 'b' }],
        removed: [{ prefix: 'gone', mirId: 'MIR:gone', name: 'gone' }],
        changed: [{ prefix: 'a', mirId: 'MIR:a', name: 'A', changes: [{ field: 'name', from: 'a', to: 'A' }] }],
      },
      resources: {
        added: [{ namespacePrefix: 'b', mirId: 'R3', providerCode: 'p', name: 'Provider R3' }],
        removed: [],
        changed: [
          {
            namespacePrefix: 'a', mirId: 'R1', providerCode: 'p', name: 'Provider R1',
            changes: [
              { field: 'institution.name', from: 'Institute', to: 'Renamed institute' },
              { field: 'institution.location.countryCode', from: 'GB', to: 'FR' },
            ],
          },
          { namespacePrefix: 'b', mirId: 'R2', providerCode: 'p', name: 'Provider R2', changes: [{ field: 'namespacePrefix', from: 'a', to: 'b' }] },
        ],
      },
    });
  });

  it('finds nothing between a dataset and itself', () => {
    const same = payload(namespace('a', [resource('R1')]));
    expect(diffDatasets(same, same)).toEqual({ namespaces: { added: [], removed: [], changed: [] }, resources: { added: [], removed: [], changed: [] } });
  });
});
