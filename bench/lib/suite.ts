import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/lib/project-root.js';
import type { MachineInfo } from './results.js';
import { writeResults } from './results.js';
import type { ServerProcess } from './server-processes.js';
import { say } from './settings.js';

/** What a suite's measuring step is handed. */
export interface SuiteRun {
  /** Servers started by the suite: all are stopped at the end, and on Ctrl-C. */
  readonly servers: ServerProcess[];
  /**
   * Removes what the suite made (databases, files, Redis keys), after the servers stop: at the end, and on
   * Ctrl-C (`interrupted`). Set it as soon as the settings say what there is to remove.
   */
  cleanup?: (interrupted: boolean) => Promise<void>;
}

export interface SuiteResults {
  startedAt: string;
  finishedAt?: string;
  machine: MachineInfo;
}

/**
 * Runs one benchmark suite as `npm run bench:<name>` does: `measure` starts its servers and takes the
 * figures, `report` judges them (recording the verdicts in the results) and gives the tables; the results go
 * to bench/results/<name>.json and .md, the text table to stdout, progress to stderr. Exits 0, 1 when the
 * benchmark failed, 130 on Ctrl-C (the servers stop by themselves when this process goes, through their IPC
 * channel; the suite's cleanup runs here).
 */
export function runSuite<R extends SuiteResults>(
  name: string,
  suite: {
    measure: (run: SuiteRun) => Promise<R>;
    report: (results: R) => { markdown: string; text: string };
    /** After the results are written: a message makes the run exit 1 (a suite that judges strictly when told). */
    failure?: (results: R) => string | null;
  },
): void {
  const run: SuiteRun = { servers: [] };
  // Set on Ctrl-C: the cleanup then ends the process, and the failures it causes (a database dropped under a
  // query) are not reported as the benchmark's.
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    say('interrupted; cleaning up');
    void Promise.allSettled(run.servers.map((s) => s.stop()))
      .then(() => run.cleanup?.(true))
      .finally(() => process.exit(130));
  });

  const main = async () => {
    let results: R;
    try {
      results = await suite.measure(run);
    } finally {
      await Promise.all(run.servers.map((s) => s.stop()));
      await run.cleanup?.(false);
    }
    results.finishedAt = new Date().toISOString();
    results.machine.loadAverageAtEnd = Math.round(os.loadavg()[0]! * 100) / 100;
    const { markdown, text } = suite.report(results);
    const root = projectRoot();
    const written = writeResults(root, results, markdown, name);
    process.stdout.write(`\n${text}\n`);
    say(`wrote ${path.relative(root, written.json)} and ${path.relative(root, written.markdown)}`);
    return suite.failure?.(results) ?? null;
  };
  main().then(
    (failure) => {
      if (failure) process.stderr.write(`${name} benchmark: ${failure}\n`);
      process.exit(failure ? 1 : 0);
    },
    (error: unknown) => {
      if (interrupted) return;
      process.stderr.write(`${name} benchmark failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
