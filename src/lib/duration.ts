/** Durations as operators write them in settings and on command lines: a whole number and a unit (`24h`, `90m`, `500ms`). */
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

const DURATION = /^(\d{1,9})(ms|s|m|h|d)$/;

/** Milliseconds of `text`, or null when it is not a duration. */
export function parseDuration(text: string): number | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
}

/** The shortest exact spelling of `ms` (86400000 → `1d`, 1500 → `1500ms`), for messages. */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms >= UNIT_MS[unit] && ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
