/**
 * The wire form of the link-check measurements (core/measurement-wire.ts): what the upstream sends a
 * satellite and the satellite saves gives back the same measurements, and so the same ranking tag and failing
 * providers; a list that is not one is refused with a reason, so the satellite keeps the measurements it has.
 */
import { measurementsOfWire, wireOfMeasurements } from '../../src/core/measurement-wire.js';
import { failingProvidersOf, type SampleMeasurement } from '../../src/core/reliability.js';
import { rankingTagOf } from '../../src/resolver/snapshot-store.js';

const measurements = new Map<number, SampleMeasurement>([
  [465, { up: 3, counted: 3, uncounted: 1, notFoundStreak: false }],
  [464, { up: 0, counted: 2, uncounted: 0, notFoundStreak: true }],
  [7, { up: 0, counted: 0, uncounted: 2, notFoundStreak: false }],
]);

describe('the wire form of the link-check measurements', () => {
  it('is one tuple per resource, in resource order, and reads back as the same measurements', () => {
    const wire = wireOfMeasurements(measurements);
    expect(wire).toEqual([
      [7, 0, 0, 2, 0],
      [464, 0, 2, 0, 1],
      [465, 3, 3, 1, 0],
    ]);
    const back = measurementsOfWire(JSON.parse(JSON.stringify(wire)));
    expect(new Map([...back].sort(([a], [b]) => a - b))).toEqual(new Map([...measurements].sort(([a], [b]) => a - b)));
    expect(rankingTagOf(back)).toBe(rankingTagOf(measurements));
    expect([...failingProvidersOf(back)]).toEqual([464]);
  });

  it('reads an empty list as no measurements', () => {
    expect(measurementsOfWire([]).size).toBe(0);
    expect(wireOfMeasurements(new Map())).toEqual([]);
  });

  it.each([
    [{ measurements: [] }, /not a list/],
    [[[1, 2, 3, 4]], /measurement 0 is not/],
    [[[1, 0, 0, 0, 0], [2, 0, 0, 0, true]], /measurement 1 is not/],
    [[[1, -1, 0, 0, 0]], /measurement 0 is not/],
    [[[1, 0.5, 1, 0, 0]], /measurement 0 is not/],
    [[[1, 3, 2, 0, 0]], /more working checks than counted/],
    [[[1, 0, 1, 0, 0], [1, 1, 1, 0, 0]], /repeats resource 1/],
  ])('refuses %j, saying why', (wire, message) => {
    expect(() => measurementsOfWire(wire)).toThrow(message);
  });
});
