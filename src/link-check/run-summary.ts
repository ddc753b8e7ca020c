import type { LinkCheckOutcome } from '../db/tables.js';

/** Classes that count as the provider working, and those that count as it failing (issue 12). */
export const UP_CLASSES = ['up', 'protected'] as const satisfies readonly LinkCheckOutcome[];
export const DOWN_CLASSES = [
  'not_found',
  'http_error',
  'timeout',
  'dns',
  'tls',
  'refused',
  'redirect_loop',
] as const satisfies readonly LinkCheckOutcome[];

type Counts = Partial<Record<LinkCheckOutcome, number>>;

const sum = (counts: Counts, classes: readonly LinkCheckOutcome[]) => classes.reduce((total, c) => total + (counts[c] ?? 0), 0);

/** `label      12   note`: the counts in one column, whatever the label. */
function row(label: string, count: number | string, note = ''): string {
  return `${label.padEnd(18)}${String(count).padStart(7)}${note ? `   ${note}` : ''}`;
}

/**
 * The table `npm run linkcheck -- --wait` ends with: up, down by class, blocked by bot protection (counted
 * neither way) and skipped. Every down class is listed, with its zero, so that two runs read alike.
 */
export function formatRunSummary(counts: Counts): string[] {
  const total = Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);
  return [
    row('class', 'checks'),
    row('up', sum(counts, UP_CLASSES), counts.protected ? `(${counts.up ?? 0} up, ${counts.protected} protected: behind a login, counted as up)` : ''),
    row('down', sum(counts, DOWN_CLASSES)),
    ...DOWN_CLASSES.map((c) => row(`  ${c}`, counts[c] ?? 0)),
    row('bot_blocked', counts.bot_blocked ?? 0, 'a bot challenge answered: counted neither up nor down'),
    row('skipped', counts.skipped ?? 0, 'not checked: no URL, or one the safe fetcher refuses'),
    row('total', total),
  ];
}
