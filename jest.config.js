// Jest runs the TypeScript sources as native ES modules (the project is "type": "module"),
// so the test script starts it with --experimental-vm-modules.
//
// SWC strips the types (about half the CPU of ts-jest, which type-checks each file as it loads it);
// `npm run typecheck` is where types are checked, and .ci/run runs it before the tests.
import { availableParallelism } from 'node:os';

/** @type {import('jest').Config} */
export default {
  // Node's, stopping what processes a file left running when it is done (process-cleanup-environment.js).
  testEnvironment: '<rootDir>/test/support/process-cleanup-environment.js',
  // jest's own, keeping V8's code cache of the packages each worker's files compile (the file says why).
  runtime: '<rootDir>/test/support/code-caching-runtime.cjs',
  // Files run in parallel workers, each with its own Redis database (global-setup.ts) and every file with
  // its own Postgres database, queue prefix and ports. Integration files spend much of their time waiting on
  // the processes, servers and timers they start, so there are two workers more than cores (jest's default,
  // one fewer than the cores, runs a 2-core machine's files one at a time). On the 2-core machine, the same
  // 158 files (2026-11-29): three workers 259 s, four 229 s, five 225 s with ~1.6 cores busy; more workers
  // gain little and stretch every file's own deadlines on a busy machine.
  maxWorkers: availableParallelism() + 2,
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        sourceMaps: 'inline',
        module: { type: 'es6' },
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', tsx: true },
          // tsconfig.json's "jsx": "react-jsx" with "jsxImportSource": "preact".
          transform: { react: { runtime: 'automatic', importSource: 'preact' } },
        },
      },
    ],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts?(x)'],
  // A deadline, never a measure: a test that starts processes (npm, node, Chromium) can take several times its
  // quiet time beside a CPU-heavy neighbour on two cores.
  testTimeout: 60000,
  // Redis databases of the run's own, one per worker (TEST_REDIS_URL), checked for leftover keys at the end;
  // one Chromium for the browser test files.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Names, under the summary, what the tests skipped for a missing binary or data file needed (requirements.ts).
  reporters: ['default', '<rootDir>/test/support/requirements-reporter.js'],
};
