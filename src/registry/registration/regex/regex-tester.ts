/**
 * The RegexTest of registration validation: user-supplied `idRegexPattern`s are compiled and tested in a
 * small pool of worker threads with a time bound, so that a catastrophic pattern (`^(a+)+$` against forty
 * `a` and a `!`) costs one terminated thread and a clear refusal, while the API keeps serving. Worker threads
 * rather than an RE2 binding: RE2 is a native build (compiled from source on every `npm ci`) and lacks back
 * references and lookaround, which Java patterns may use.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { projectRoot } from '../../../lib/project-root.js';
import { CheckUnavailableError, type RegexTest, type RegexVerdict } from '../checks.js';
import type { RegexJobMessage, RegexWorkerMessage } from './regex-worker.js';

export interface RegexTesterOptions {
  /** Worker threads, started on demand (default 2). */
  poolSize?: number;
  /** Longest a compile-and-test may run before its worker is terminated (default 500; REGEX_CHECK_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Longer patterns are refused without being compiled (default 1000; REGEX_MAX_PATTERN_LENGTH). */
  maxPatternLength?: number;
  /** Longer samples are not tested: the verdict says they do not match (default 1000). */
  maxSampleLength?: number;
  /** Checks waiting for a free worker; beyond, regexTest rejects with CheckUnavailableError (default 1000). */
  maxQueueLength?: number;
  /** Verdicts remembered per (pattern, sample), least recently used first out (default 1000; 0 disables). */
  cacheSize?: number;
}

export interface RegexTesterStats {
  /** Checks sent to a worker since creation. */
  jobsStarted: number;
  /** Checks answered from the cache or by joining an identical check already under way. */
  cacheHits: number;
  /** Checks stopped by the time bound (each one terminated its worker). */
  timeouts: number;
  /** Worker threads started since creation, replacements included. */
  workersStarted: number;
  /** Worker threads alive now. */
  workers: number;
  /** Checks running now. */
  running: number;
  /** Checks waiting for a worker now. */
  queued: number;
}

export interface RegexTester {
  regexTest: RegexTest;
  /** Refuses new checks, fails waiting ones with CheckUnavailableError and terminates every worker. */
  close(): Promise<void>;
  stats(): RegexTesterStats;
}

export const REGEX_TOO_SLOW_MESSAGE =
  'Invalid regex: the pattern takes too long to evaluate (possible catastrophic backtracking); simplify it';
const REGEX_TOO_BIG_MESSAGE = 'Invalid regex: the pattern needs too much memory to evaluate; simplify it';

const DEFAULTS: Required<RegexTesterOptions> = {
  poolSize: 2,
  timeoutMs: 500,
  maxPatternLength: 1000,
  maxSampleLength: 1000,
  maxQueueLength: 1000,
  cacheSize: 1000,
};

// Plenty for one regex over a 1000-character sample; a pattern that needs more fails its own thread only.
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

/**
 * The compiled worker beside this module. worker_threads run JavaScript only, so when this module itself
 * runs from the TypeScript sources (jest through ts-jest), the compiled copy under dist/ is used instead and
 * the tests need a build first, which `npm test` does. An `eval` string would avoid the build but would put
 * the worker's code out of reach of the type checker and the linter.
 */
function locateWorker(): URL {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new URL('./regex-worker.js', import.meta.url);
  const root = projectRoot();
  const compiled = path.join(root, 'dist', path.relative(root, path.dirname(here)), 'regex-worker.js');
  if (!existsSync(compiled)) {
    throw new Error(`The regex tester runs its worker from ${compiled}, which is missing: run npm run build first`);
  }
  return pathToFileURL(compiled);
}

interface Job {
  id: number;
  pattern: string;
  sample: string | null;
  settle: (verdict: RegexVerdict) => void;
  fail: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

function checkedOptions(options: RegexTesterOptions): Required<RegexTesterOptions> {
  const merged = { ...DEFAULTS, ...options };
  for (const [name, value] of Object.entries(merged)) {
    const minimum = name === 'cacheSize' || name === 'maxQueueLength' ? 0 : 1;
    if (!Number.isInteger(value) || value < minimum) {
      throw new RangeError(`createRegexTester: ${name} must be an integer >= ${minimum}, got ${value}`);
    }
  }
  return merged;
}

/**
 * Whole-string `String.matches` semantics of Java (see java-regex.ts), answered within `timeoutMs` of a
 * worker starting on the check; a check waits in a bounded queue while every worker is busy.
 */
export function createRegexTester(options: RegexTesterOptions = {}): RegexTester {
  const settings = checkedOptions(options);
  const workerUrl = locateWorker();

  let slots: Slot[] = [];
  let queue: Job[] = [];
  const inFlight = new Map<string, Promise<RegexVerdict>>();
  const cache = new Map<string, RegexVerdict>();
  const terminating = new Set<Promise<unknown>>();
  let closed = false;
  let closing: Promise<void> | null = null;
  let nextJobId = 1;
  const counters = { jobsStarted: 0, cacheHits: 0, timeouts: 0, workersStarted: 0 };

  function remember(key: string, verdict: RegexVerdict): void {
    if (settings.cacheSize === 0) return;
    cache.delete(key);
    cache.set(key, verdict);
    if (cache.size > settings.cacheSize) cache.delete(cache.keys().next().value as string);
  }

  function terminate(worker: Worker): void {
    const done = worker.terminate().catch(() => undefined);
    terminating.add(done);
    void done.finally(() => terminating.delete(done));
  }

  function removeSlot(slot: Slot): boolean {
    if (!slots.includes(slot)) return false;
    slots = slots.filter((s) => s !== slot);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    return true;
  }

  function spawn(): void {
    // execArgv: []: the parent's flags (e.g. jest's --experimental-vm-modules) have no business here.
    const worker = new Worker(workerUrl, { execArgv: [], resourceLimits: WORKER_RESOURCE_LIMITS });
    const slot: Slot = { worker, ready: false, job: null, timer: null };
    slots.push(slot);
    counters.workersStarted++;
    worker.on('message', (message: RegexWorkerMessage) => {
      if (!slots.includes(slot)) return;
      if (message.type === 'ready') {
        slot.ready = true;
      } else if (slot.job && message.id === slot.job.id) {
        const job = slot.job;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.job = null;
        const verdict: RegexVerdict = { compiles: message.compiles };
        if (message.error !== undefined) verdict.error = message.error;
        if (message.matches !== undefined) verdict.matches = message.matches;
        job.settle(verdict);
      }
      pump();
    });
    worker.on('error', (error: Error & { code?: string }) => stopped(slot, error));
    worker.on('exit', () => stopped(slot, null));
  }

  /** The worker died on its own (crash, out of memory, failed start), not through a timeout or close. */
  function stopped(slot: Slot, error: (Error & { code?: string }) | null): void {
    if (!removeSlot(slot)) return;
    const job = slot.job;
    slot.job = null;
    if (job) {
      if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') job.settle({ compiles: false, error: REGEX_TOO_BIG_MESSAGE });
      else job.fail(new CheckUnavailableError(`The regex check worker stopped: ${error?.message ?? 'it exited'}`));
    }
    if (!slot.ready) {
      // A worker that cannot start would fail the same way again: answer the waiting checks instead of looping.
      const waiting = queue;
      queue = [];
      for (const queued of waiting) {
        queued.fail(new CheckUnavailableError(`The regex check worker could not start: ${error?.message ?? 'it exited'}`));
      }
      return;
    }
    pump();
  }

  function timedOut(slot: Slot): void {
    const job = slot.job;
    if (!job || !removeSlot(slot)) return;
    slot.job = null;
    counters.timeouts++;
    // Terminating is the only way to stop a running regex; the thread is replaced at once.
    terminate(slot.worker);
    job.settle({ compiles: false, error: REGEX_TOO_SLOW_MESSAGE });
    if (!closed) spawn();
    pump();
  }

  function start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    counters.jobsStarted++;
    slot.worker.postMessage({ id: job.id, pattern: job.pattern, sample: job.sample } satisfies RegexJobMessage);
    slot.timer = setTimeout(() => timedOut(slot), settings.timeoutMs);
  }

  function pump(): void {
    if (closed) return;
    for (const slot of slots) {
      const job = queue[0];
      if (!job) break;
      if (slot.ready && !slot.job) {
        queue.shift();
        start(slot, job);
      }
    }
    // The whole pool starts with the first check still waiting, so that the next ones find a thread ready.
    if (queue.length > 0) while (slots.length < settings.poolSize) spawn();
    // Idle threads must not keep the process alive; starting ones do, as a check is waiting for them.
    for (const slot of slots) {
      if (slot.ready && !slot.job) slot.worker.unref();
    }
  }

  function evaluate(pattern: string, sample: string | null): Promise<RegexVerdict> {
    if (closed) return Promise.reject(new CheckUnavailableError('The regex tester is closed'));
    if (pattern.length > settings.maxPatternLength) {
      return Promise.resolve({
        compiles: false,
        error: `Invalid regex: the pattern is longer than ${settings.maxPatternLength} characters`,
      });
    }
    const key = JSON.stringify([pattern, sample]);
    const known = cache.get(key);
    if (known) {
      counters.cacheHits++;
      remember(key, known);
      return Promise.resolve(known);
    }
    const running = inFlight.get(key);
    if (running) {
      counters.cacheHits++;
      return running;
    }
    if (queue.length >= settings.maxQueueLength) {
      return Promise.reject(
        new CheckUnavailableError('Too many regular expression checks are waiting; try again shortly'),
      );
    }
    const verdict = new Promise<RegexVerdict>((resolve, reject) => {
      queue.push({
        id: nextJobId++,
        pattern,
        sample,
        settle: (answer) => {
          inFlight.delete(key);
          remember(key, answer);
          resolve(answer);
        },
        fail: (error) => {
          inFlight.delete(key);
          reject(error);
        },
      });
    });
    inFlight.set(key, verdict);
    pump();
    return verdict;
  }

  const regexTest: RegexTest = async (pattern, sample) => {
    if (sample !== null && sample.length > settings.maxSampleLength) {
      // Not worth a thread: such a sample is no identifier. The pattern is still judged on its own.
      const alone = await evaluate(pattern, null);
      return alone.compiles ? { compiles: true, matches: false } : { ...alone };
    }
    // A copy, so that a caller editing its verdict does not edit the cache.
    return { ...(await evaluate(pattern, sample)) };
  };

  function close(): Promise<void> {
    if (closing) return closing;
    closed = true;
    const refusal = () => new CheckUnavailableError('The regex tester is closed');
    const waiting = queue;
    queue = [];
    for (const job of waiting) job.fail(refusal());
    const all = slots;
    slots = [];
    for (const slot of all) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.job?.fail(refusal());
      slot.job = null;
      terminate(slot.worker);
    }
    closing = Promise.all([...terminating]).then(() => undefined);
    return closing;
  }

  function stats(): RegexTesterStats {
    return {
      ...counters,
      workers: slots.length,
      running: slots.filter((s) => s.job).length,
      queued: queue.length,
    };
  }

  return { regexTest, close, stats };
}
