/**
 * A provider's measured availability (issue 12): what the link checks of its sample URL say about it. The one
 * definition, read by the resolver's recommendation index (recommendation.ts) and by the registry's health
 * API, so both always give the same number.
 *
 * Unlike the reference's link checker, a check that could not judge the provider (blocked as a bot: a 403 or
 * 429 challenge page; skipped) counts neither way, and only a window of recent checks is counted, so a
 * provider that comes back is not held down by old failures.
 */

/** Sample-URL checks of the last this many days are counted. */
export const RELIABILITY_WINDOW_DAYS = 7;

/**
 * A provider whose sample URL has answered not_found on every counted check for at least this many days is
 * never the browser redirect target while another provider works (best-provider.ts).
 */
export const NOT_FOUND_STREAK_DAYS = 3;

/** The reliability of a provider without any counted check, as the reference's link checker scores it. */
export const DEFAULT_RELIABILITY = 50;

/** Outcome classes that mean the sample URL works (`protected`: a 401/403 where the resource says so). */
export const UP_OUTCOMES: readonly string[] = ['up', 'protected'];

/** Outcome classes that say nothing about the provider, counted neither as up nor as down. */
export const UNCOUNTED_OUTCOMES: readonly string[] = ['bot_blocked', 'skipped'];

/** The sample-URL checks of one resource over the last RELIABILITY_WINDOW_DAYS (db/link-check-reads.ts). */
export interface SampleMeasurement {
  /** Checks that found the sample URL working (UP_OUTCOMES). */
  readonly up: number;
  /** Checks that count: all but UNCOUNTED_OUTCOMES. */
  readonly counted: number;
  /** Checks that do not count (UNCOUNTED_OUTCOMES). */
  readonly uncounted: number;
  /**
   * Whether the sample URL has been not_found for NOT_FOUND_STREAK_DAYS in a row: among the counted checks of
   * the window, every one after the last that was not `not_found` is `not_found`, and the first of those is
   * at least NOT_FOUND_STREAK_DAYS old. One working (or timing out, or failing otherwise) check ends a
   * streak; checks that do not count neither end nor start one.
   */
  readonly notFoundStreak: boolean;
}

/** Measurements by resource id; a resource without counted or uncounted checks in the window is absent. */
export type SampleMeasurements = ReadonlyMap<number, SampleMeasurement>;

/**
 * Reliability 0..100: the share of working checks among the counted ones, rounded as the reference's link
 * checker rounds it (Math.round); DEFAULT_RELIABILITY when none counts.
 */
export function reliabilityOf(measurement: SampleMeasurement | undefined): number {
  if (measurement === undefined || measurement.counted === 0) return DEFAULT_RELIABILITY;
  return Math.round((100 * measurement.up) / measurement.counted);
}

/** Resources whose sample URL has been not found for days: never the redirect target while another works. */
export function failingProvidersOf(measurements: SampleMeasurements): ReadonlySet<number> {
  const failing = new Set<number>();
  for (const [id, m] of measurements) if (m.notFoundStreak) failing.add(id);
  return failing;
}
