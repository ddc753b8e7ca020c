// Jest runs the TypeScript sources as native ES modules (the project is "type": "module"),
// so the test script starts it with --experimental-vm-modules.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // Names, under the summary, what the tests skipped for a missing binary or data file needed (requirements.ts).
  reporters: ['default', '<rootDir>/test/support/requirements-reporter.js'],
};
