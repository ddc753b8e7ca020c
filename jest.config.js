// Jest runs the TypeScript sources as native ES modules (the project is "type": "module"),
// so the test script starts it with --experimental-vm-modules.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts', '.tsx'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.tsx?$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts?(x)'],
  testTimeout: 30000,
  // A Redis database of the run's own (TEST_REDIS_URL), checked for leftover keys at the end.
  globalSetup: '<rootDir>/test/support/redis-test-db.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // Names, under the summary, what the tests skipped for a missing binary or data file needed (requirements.ts).
  reporters: ['default', '<rootDir>/test/support/requirements-reporter.js'],
};
