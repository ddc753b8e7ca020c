/**
 * Speed is measured by `npm run bench:*`, never asserted by a test (CONTRIBUTING, issue 22): an upper bound
 * on a measured duration passes on an idle machine and fails on a busy one, whatever the code does. This
 * scans test/ for the shapes such a bound takes. A test keeps asserting the behaviour (the order, the
 * refusal, the answer); "eventually" is a deadline of a wait (`waitFor`, `settlesWithin`), not an `expect`.
 *
 * What counts as a duration in an `expect(…)` followed by `.toBeLessThan(` or `.toBeLessThanOrEqual(`, or
 * compared with `<` inside the `expect(…)`:
 * - a time since a clock read, in the expectation itself: `Date.now() - …`, `performance.now() - …`,
 *   `process.hrtime…(…) - …`;
 * - a name the same file assigned an elapsed time to (`took = Date.now() - started`,
 *   `ms: performance.now() - started`);
 * - a name that says it is one: elapsed, duration, latency, took, ms, seconds, p50, p95, p99 (or ending in
 *   Elapsed, Duration, Latency);
 * - and, whatever the subject, a bound named as a time: `.toBeLessThan(SOME_LIMIT_MS)`, `(2 * limitMs)`.
 * Lower bounds (`toBeGreaterThan`) are left alone: "at least 1 s apart" is a rule a slow machine keeps.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/processes.js';

const TEST_ROOT = path.join(ROOT, 'test');

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return testFiles(file);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/** A clock read something is subtracted from: the time since then (`expires - Date.now()` is a time to come). */
const CLOCK_ELAPSED = /(?:Date\.now\(\)|performance\.now\(\)|process\.hrtime[\w.]*\([^)]*\))\s*-/;
const DURATION_NAME = /^(?:elapsed|duration|latency|took|ms|seconds|p50|p95|p99)$|(?:Elapsed|Duration|Latency)$/;
/** `name = <clock> - …` or `name: <clock> - …`, possibly inside Math.round( or a parenthesis. */
const ELAPSED_ASSIGNMENT = /\b([A-Za-z_$][\w$]*)\s*[:=]\s*(?:Math\.\w+\()?\(?\s*(?:Date\.now\(\)|performance\.now\(\)|process\.hrtime[\w.]*\([^)]*\))\s*-/g;
const TIME_BOUND = /^(?:[A-Z][A-Z0-9_]*_MS|[a-z][A-Za-z0-9]*Ms)$/;

/** The text of a balanced parenthesis starting at `open` (the index of its '('), without the parentheses. */
function parenthesised(text: string, open: number): string | undefined {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return undefined;
}

const withoutStrings = (code: string) => code.replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "''");

/** Each `expect(…)` in `source` that bounds a duration from above, as `line: expectation`. */
function speedAssertionsIn(source: string): string[] {
  const code = withoutStrings(source);
  const elapsedNames = new Set([...code.matchAll(ELAPSED_ASSIGNMENT)].map((m) => m[1]!));
  const found: string[] = [];
  for (const match of code.matchAll(/\bexpect\(/g)) {
    const open = match.index + 'expect'.length;
    const subject = parenthesised(code, open);
    if (subject === undefined) continue;
    const after = code.slice(open + subject.length + 2);
    const upper = /^\s*(?:\.not)?\s*\.toBeLessThan(?:OrEqual)?\(/.exec(after);
    const bound = upper ? parenthesised(after, upper[0].length - 1)?.trim() : undefined;
    const names = subject.match(/[A-Za-z_$][\w$]*/g) ?? [];
    const isDuration = CLOCK_ELAPSED.test(subject) || names.some((name) => elapsedNames.has(name) || DURATION_NAME.test(name));
    const compared = upper !== null || /[^=]<=?[^=]/.test(subject.replace(/=>/g, ''));
    if ((isDuration && compared) || (bound?.match(/[A-Za-z_$][\w$]*/g) ?? []).some((name) => TIME_BOUND.test(name))) {
      const line = code.slice(0, match.index).split('\n').length;
      found.push(`${line}: expect(${subject.trim()})${upper ? `.toBeLessThan…(${bound ?? ''})` : ''}`);
    }
  }
  return found;
}

describe('no test asserts speed', () => {
  it('finds no upper bound on a measured duration in test/ (measure it in a bench:* scenario instead)', () => {
    const offenders = testFiles(TEST_ROOT).flatMap((file) =>
      speedAssertionsIn(readFileSync(file, 'utf8')).map((found) => `${path.relative(ROOT, file)}:${found}`),
    );
    expect(offenders).toEqual([]);
  });

  // The rule is only worth having if it catches what it was written against: each shape removed in issue 22.
  it.each([
    ['an elapsed time read inline', 'const started = Date.now();\nawait run();\nexpect(Date.now() - started).toBeLessThan(2000);'],
    ['an elapsed time kept in a variable', 'const started = performance.now();\nawait run();\nconst ms = Math.round(performance.now() - started);\nexpect(ms).toBeLessThan(2000);'],
    ['an elapsed time in a result field', 'const started = performance.now();\nconst res = await fetch(url);\nreturn { status: res.status, ms: performance.now() - started };\n// …\nexpect(answer.ms).toBeLessThan(500);'],
    ['a percentile', 'expect(p99).toBeLessThanOrEqual(50);'],
    ['a named duration from elsewhere', 'const elapsed = await timeIt();\nexpect(elapsed).toBeLessThan(1000);'],
    ['a bound named as a time', 'expect(await timeUntil(seen)).toBeLessThan(DEADLINE_MS);'],
    ['a bound computed from one named as a time', 'expect(slowest[slowest.length - 1]).toBeLessThan(2 * PROBE_LIMIT_MS);'],
    ['a comparison inside the expectation', 'const took = Date.now() - started;\nexpect({ what, promptly: took < 5000 }).toEqual({ what, promptly: true });'],
  ])('catches %s', (_shape, source) => {
    expect(speedAssertionsIn(source)).toHaveLength(1);
  });

  it.each([
    ['a deadline of a wait', "await waitFor(async () => (await seen()) === true, { timeoutMs: 5000, what: 'the change' });"],
    ['a lower bound on a gap', 'for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(980);'],
    ['a count bounded by a rule', 'expect(polite.maxInFlight()).toBeLessThanOrEqual(2);'],
    ['a metric no older than the time since the change', 'const sinceChange = (Date.now() - changedAt) / 1000;\nexpect(after.value(\'age_seconds\')).toBeLessThanOrEqual(sinceChange);'],
    ['a lifetime still to come', 'expect(expires.getTime() - Date.now()).toBeLessThan(8.1 * 3600_000);'],
    ['a schedule computed from now', 'const waitMs = row.nextAttemptAt.getTime() - Date.now();\nexpect(waitMs).toBeGreaterThan(20_000);'],
  ])('lets %s be', (_shape, source) => {
    expect(speedAssertionsIn(source)).toEqual([]);
  });
});
