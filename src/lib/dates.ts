/**
 * Dates as the reference writes them (Jackson defaults): ISO 8601, milliseconds, numeric UTC offset,
 * e.g. 2024-02-12T09:35:45.473+00:00.
 */
export function formatReferenceDate(date: Date | null | undefined): string | null {
  if (!date) return null;
  return date.toISOString().replace('Z', '+00:00');
}
