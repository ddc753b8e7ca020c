/**
 * jest's test environment (jest.config.js): Node's, plus a clean-up when a test file is done. Whatever
 * processes the file (or the code it ran) started and did not stop are stopped here, after every hook of the
 * file, so a run leaves no process behind and exits by itself.
 *
 * Two kinds are expected:
 * - the ReDoS checker's agent (src/lib/redos-check.ts): recheck starts it on a process's first check and keeps
 *   it for the process's life, right for a service; but jest loads each file's modules afresh, recheck
 *   included, so every file that checks a pattern starts one, and recheck has no way to stop it (a run once
 *   kept dozens, ~75 MB each, holding jest open after its summary). Stopped silently.
 * - anything else: a service, worker or fixture a test meant to stop (in afterAll, say) and did not, because a
 *   hook timed out or failed first. Stopped with its process tree, and named on stderr so the file's author
 *   learns of it.
 *
 * With TEST_REPORT_HANDLES set, it also names each file that still holds a handle (a socket, a pipe, a
 * timer) 3 s after its hooks are done, by kind (`process.getActiveResourcesInfo()`): what keeps a jest
 * worker alive past the run ("failed to exit gracefully"). Off by default, as a file that leaves a short
 * timer would wait those 3 s.
 *
 * The process clean-up is Linux only (it reads /proc); elsewhere it does nothing. The run's shared Chromium
 * (global-setup.ts), a child of this process when jest runs in band, is left be.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestEnvironment } from 'jest-environment-node';

function childrenOf(pid) {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
      readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** `pid`'s descendants, children before their own children. */
function descendantsOf(pid) {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

function kill(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** How many resources of each kind keep this process's event loop busy (sockets, pipes, timers…). */
function countResources() {
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo()) counts.set(type, (counts.get(type) ?? 0) + 1);
  // Not the file's: the jest worker's own channel to jest, busy (ref'd) while it sends results.
  const channelFd = process.channel?.fd;
  if (channelFd !== undefined && process._getActiveHandles().some((h) => h.constructor?.name === 'Pipe' && h.fd === channelFd)) {
    counts.set('PipeWrap', (counts.get('PipeWrap') ?? 1) - 1);
  }
  return counts;
}

/** The kinds `after` has more of than `before`, as "Kind +n". */
function extraResources(before, after) {
  return [...after].filter(([type, n]) => n > (before.get(type) ?? 0)).map(([type, n]) => `${type} +${n - (before.get(type) ?? 0)}`);
}

export default class ProcessCleanupEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }

  async setup() {
    await super.setup();
    // jest's ES module runtime reads every property of `process` when a module imports 'node:process' (got
    // and other dependencies do), and reading process.stdin opens the worker's stdin: a pipe, whose handle
    // then kept the worker alive at the end of the run ("A worker process has failed to exit gracefully").
    // Opened here and unref'd, it never holds the worker; no test reads stdin.
    process.stdin.unref?.();
    this.resourcesBefore = countResources();
  }

  async teardown() {
    const keep = Number(process.env.TEST_CHROMIUM_PID);
    for (const child of childrenOf(process.pid)) {
      if (child === keep) continue;
      const argv = commandOf(child);
      const isCheckerAgent = /recheck/.test(argv[0] ?? '') && argv.includes('agent');
      const tree = [child, ...descendantsOf(child)];
      if (!isCheckerAgent && argv.length > 0) {
        process.stderr.write(`\n${this.testPath} left a process running; stopped now: ${argv.join(' ').slice(0, 200)}\n`);
      }
      // Children first: a parent killed first could let its children be re-parented out of reach.
      for (const pid of tree.reverse()) kill(pid);
    }
    await super.teardown();
    if (process.env.TEST_REPORT_HANDLES) {
      const deadline = Date.now() + 3000;
      let extra;
      while ((extra = extraResources(this.resourcesBefore, countResources())).length > 0 && Date.now() < deadline) {
        await sleep(100);
      }
      if (extra.length > 0) process.stderr.write(`\n${this.testPath} left handles: ${extra.join(', ')}\n`);
    }
  }
}
