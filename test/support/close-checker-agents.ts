/**
 * jest's setupFilesAfterEnv (jest.config.js): after each test file, stops the ReDoS checker's agent process
 * that the file's code started.
 *
 * recheck (src/lib/redos-check.ts) starts its native agent on the first check of a process and keeps it for
 * the process's life, which is right for a service. jest loads every test file's modules afresh, recheck
 * included, so each file that checks a pattern starts an agent of its own, and nothing else would stop it:
 * a run left dozens of agents (about 75 MB each) holding the jest process open after its summary. recheck
 * exposes no way to stop its agent, so this finds the children of this process that are recheck agents.
 * Linux only (it reads /proc); elsewhere the agents go when jest's workers exit.
 */
import { readdirSync, readFileSync } from 'node:fs';

function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

function isCheckerAgent(pid: number): boolean {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return /recheck/.test(argv[0] ?? '') && argv.includes('agent');
  } catch {
    return false;
  }
}

afterAll(() => {
  for (const pid of childPids(process.pid).filter(isCheckerAgent)) {
    try {
      process.kill(pid);
    } catch {
      // Gone already.
    }
  }
});
