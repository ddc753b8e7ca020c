/**
 * The link-check measurements (core/reliability.ts) as the upstream registry area sends them to a satellite
 * resolver (GET /satelliteApi/measurements) and as the satellite keeps them on disk: one compact tuple per
 * resource, so a registry of thousands of checked resources answers in some tens of kilobytes.
 */
import type { SampleMeasurement, SampleMeasurements } from './reliability.js';

/** [resourceId, up, counted, uncounted, notFoundStreak as 1 or 0]. */
export type WireMeasurement = [resourceId: number, up: number, counted: number, uncounted: number, notFoundStreak: 0 | 1];

/** The wire form of the measurements, in resource order. */
export function wireOfMeasurements(measurements: SampleMeasurements): WireMeasurement[] {
  return [...measurements]
    .sort(([a], [b]) => a - b)
    .map(([id, m]) => [id, m.up, m.counted, m.uncounted, m.notFoundStreak ? 1 : 0]);
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/**
 * The measurements of a wire list; throws an Error saying what is wrong when it is not one (an upstream of
 * another version, a damaged file), so that the caller keeps the measurements it holds.
 */
export function measurementsOfWire(wire: unknown): Map<number, SampleMeasurement> {
  if (!Array.isArray(wire)) throw new Error('the measurements are not a list');
  const measurements = new Map<number, SampleMeasurement>();
  for (const [i, item] of wire.entries()) {
    if (!Array.isArray(item) || item.length !== 5 || !item.slice(0, 4).every(isCount) || (item[4] !== 0 && item[4] !== 1)) {
      throw new Error(`measurement ${i} is not [resourceId, up, counted, uncounted, notFoundStreak 0 or 1]`);
    }
    const [id, up, counted, uncounted, streak] = item as WireMeasurement;
    if (up > counted) throw new Error(`measurement ${i} counts more working checks than counted ones`);
    if (measurements.has(id)) throw new Error(`measurement ${i} repeats resource ${id}`);
    measurements.set(id, { up, counted, uncounted, notFoundStreak: streak === 1 });
  }
  return measurements;
}
