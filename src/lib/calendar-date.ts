/** Calendar dates as the dated datasets name them: YYYY-MM-DD, in UTC. */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written YYYY-MM-DD (not 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === text;
}

/** The UTC date of `time`, YYYY-MM-DD. */
export function utcDateOf(time: Date): string {
  return time.toISOString().slice(0, 10);
}

/** The UTC date `days` days before `time`'s. */
export function daysBefore(time: Date, days: number): string {
  return utcDateOf(new Date(time.getTime() - days * 86_400_000));
}
