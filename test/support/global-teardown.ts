// jest globalTeardown (jest.config.js): runs, after every test file, the checks and clean-ups that globalSetup
// (global-setup.ts) registered. A step that throws makes jest exit non-zero with its message.
const TEARDOWN = Symbol.for('curie-resolver.tests.teardown');

export default async function globalTeardown(): Promise<void> {
  const steps = (globalThis as unknown as Record<symbol, (() => Promise<void>)[] | undefined>)[TEARDOWN] ?? [];
  const failures: unknown[] = [];
  for (const step of steps.splice(0)) {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, failures.map(String).join('\n'));
}
