// A jest reporter (jest.config.js), in JavaScript because jest loads reporters without transforming them.
import path from 'node:path';

/** The title describeRequiring (requirements.ts, NEEDS) gives the test that stands for a skipped block. */
const NEEDS = 'needs ';

/**
 * Lists, under the jest summary, what this machine lacks for the tests it skipped: describeRequiring
 * (requirements.ts) skips a block as one test named `needs …`, and jest prints neither the names of skipped
 * tests in a run of several files nor the console of a file whose tests were all skipped.
 */
export default class RequirementsReporter {
  /** @param {{ rootDir: string }} globalConfig */
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  /**
   * @param {unknown} _contexts
   * @param {{ testResults: { testFilePath: string, testResults: { status: string, title: string }[] }[] }} results
   */
  onRunComplete(_contexts, results) {
    /** @type {Map<string, Set<string>>} */
    const filesByNeed = new Map();
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status !== 'pending' || !test.title.startsWith(NEEDS)) continue;
        const files = filesByNeed.get(test.title) ?? new Set();
        files.add(path.relative(this.rootDir, file.testFilePath));
        filesByNeed.set(test.title, files);
      }
    }
    if (filesByNeed.size === 0) return;
    const lines = ['Skipped for what this machine lacks:'];
    for (const [need, files] of filesByNeed) lines.push(`  ${need}`, ...[...files].map((file) => `      ${file}`));
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}
