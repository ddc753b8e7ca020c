/**
 * The RegexTest of registration validation: user-supplied `idRegexPattern`s are compiled and tested in a
 * small pool of worker threads with a time bound, so that a catastrophic pattern (`^(a+)+$` against forty
 * `a` and a `!`) costs one terminated thread and a clear refusal, while the API keeps serving. Worker threads
 * rather than an RE2 binding: RE2 is a native build (compiled from source on every `npm ci`) and lacks back
 * references and lookaround, which Java patterns may use.
 */
import { Worker } from 'node:worker_threads';
import { locateCompiledWorker } from '../../../lib/compiled-worker.js';
import { CheckBusyError, CheckUnavailableError, type RegexTest, type RegexVerdict } from '../../model/registration-checks.js';
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
  /** Checks waiting for a free worker; beyond, regexTest rejects with CheckBusyError 503 (default 1000). */
  maxQueueLength?: number;
  /** Verdicts remembered per (pattern, sample), least recently used first out (default 1000; 0 disables). */
  cacheSize?: number;
  /**
   * Checks one client may have waiting or running; beyond, regexTest rejects with CheckBusyError 429
   * (default 2; REGEX_CHECKS_PER_CLIENT). Checks without a client are not capped.
   */
  maxPerClient?: number;
  /** Longest a check waits for a worker before it is refused with CheckBusyError 503 (default 5000; REGEX_CHECK_QUEUE_WAIT_MS). */
  maxQueueWaitMs?: number;
  /** Patterns remembered as too slow (or too big) for any sample, refused at once (default 10000; 0 disables). */
  slowPatternCacheSize?: number;
}

export interface RegexTesterStats {
  /** Checks sent to a worker since creation. */
  jobsStarted: number;
  /** Checks answered from the cache or by joining an identical check already under way. */
  cacheHits: number;
  /** Checks refused at once because their pattern already proved too slow (or too big) once. */
  slowPatternHits: number;
  /** Checks refused because their client had too many under way (429) or the wait bound passed (503). */
  refusals: number;
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
  maxPerClient: 2,
  maxQueueWaitMs: 5000,
  slowPatternCacheSize: 10000,
};

// Checks without a client share this key: they are scheduled like one client, never capped.
const NO_CLIENT = '';

// Plenty for one regex over a 1000-character sample; a pattern that needs more fails its own thread only.
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

interface Job {
  id: number;
  pattern: string;
  sample: string | null;
  client: string;
  /** Handed to a worker (counted in `running` until it ends). */
  started: boolean;
  /** Refuses the job if it is still waiting when the wait bound passes. */
  waitTimer: NodeJS.Timeout | null;
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
    const minimum = name === 'cacheSize' || name === 'maxQueueLength' || name === 'slowPatternCacheSize' ? 0 : 1;
    if (!Number.isInteger(value) || value < minimum) {
      throw new RangeError(`createRegexTester: ${name} must be an integer >= ${minimum}, got ${value}`);
    }
  }
  return merged;
}

/** Seconds a client over its cap should wait: about one check's time bound. */
function capRetryAfter(timeoutMs: number): number {
  return Math.max(1, Math.ceil(timeoutMs / 1000));
}

/** Least recently used first out, `size` entries at most (0: remembers nothing). */
function rememberIn<V>(cache: Map<string, V>, size: number, key: string, value: V): void {
  if (size === 0) return;
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > size) cache.delete(cache.keys().next().value as string);
}

/**
 * Whole-string `String.matches` semantics of Java (see java-regex.ts), answered within `timeoutMs` of a
 * worker starting on the check.
 *
 * The pool is shared fairly between clients (issue 10): one client posting many catastrophic patterns,
 * each holding a thread for the whole time bound, used to make everyone else wait for all of them. So each
 * client may have `maxPerClient` checks waiting or running (more are refused with 429); a free thread takes
 * the next check of the waiting client with the fewest checks running; a check that waits longer than
 * `maxQueueWaitMs` is refused with 503; and a pattern that once ran out of time is refused at once
 * afterwards, whatever the sample.
 */
export function createRegexTester(options: RegexTesterOptions = {}): RegexTester {
  const settings = checkedOptions(options);
  const workerUrl = locateCompiledWorker(import.meta.url, 'regex-worker.js');

  let slots: Slot[] = [];
  /** Waiting checks by client; a client is listed only while it has some. */
  let waiting = new Map<string, Job[]>();
  let queued = 0;
  /** Checks each client has waiting or running (those it started, not those it joined). */
  const underWay = new Map<string, number>();
  const running = new Map<string, number>();
  /** When each client with checks under way last had one started (a sequence number). */
  const lastStarted = new Map<string, number>();
  let starts = 0;
  const inFlight = new Map<string, Promise<RegexVerdict>>();
  const cache = new Map<string, RegexVerdict>();
  const slowPatterns = new Map<string, RegexVerdict>();
  const terminating = new Set<Promise<unknown>>();
  let closed = false;
  let closing: Promise<void> | null = null;
  let nextJobId = 1;
  const counters = { jobsStarted: 0, cacheHits: 0, slowPatternHits: 0, refusals: 0, timeouts: 0, workersStarted: 0 };

  function remember(key: string, verdict: RegexVerdict): void {
    rememberIn(cache, settings.cacheSize, key, verdict);
  }

  function add(counts: Map<string, number>, client: string, delta: number): void {
    const count = (counts.get(client) ?? 0) + delta;
    if (count <= 0) counts.delete(client);
    else counts.set(client, count);
  }

  /** Takes the job out of the waiting lists (wait bound passed, or the tester closes). */
  function unqueue(job: Job): void {
    if (job.waitTimer) clearTimeout(job.waitTimer);
    job.waitTimer = null;
    const jobs = waiting.get(job.client);
    const at = jobs ? jobs.indexOf(job) : -1;
    if (!jobs || at === -1) return;
    jobs.splice(at, 1);
    queued--;
    if (jobs.length === 0) waiting.delete(job.client);
  }

  /**
   * The next check to run: the oldest of the waiting client with the fewest checks running, among those the
   * one served least recently (turns in rotation when the pool is smaller than the number of clients).
   */
  function takeNextJob(): Job | undefined {
    let chosen: Job | undefined;
    let chosenRunning = 0;
    let chosenServed = 0;
    for (const [client, jobs] of waiting) {
      const head = jobs[0]!;
      const busy = running.get(client) ?? 0;
      const served = lastStarted.get(client) ?? 0;
      if (
        !chosen ||
        busy < chosenRunning ||
        (busy === chosenRunning && (served < chosenServed || (served === chosenServed && head.id < chosen.id)))
      ) {
        chosen = head;
        chosenRunning = busy;
        chosenServed = served;
      }
    }
    if (chosen) unqueue(chosen);
    return chosen;
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
      if (error?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        const verdict: RegexVerdict = { compiles: false, error: REGEX_TOO_BIG_MESSAGE };
        rememberIn(slowPatterns, settings.slowPatternCacheSize, job.pattern, verdict);
        job.settle(verdict);
      } else job.fail(new CheckUnavailableError(`The regex check worker stopped: ${error?.message ?? 'it exited'}`));
    }
    if (!slot.ready) {
      // A worker that cannot start would fail the same way again: answer the waiting checks instead of looping.
      for (const stuck of dropWaiting()) {
        stuck.fail(new CheckUnavailableError(`The regex check worker could not start: ${error?.message ?? 'it exited'}`));
      }
      return;
    }
    pump();
  }

  /** Empties the waiting lists and returns what was in them, oldest first. */
  function dropWaiting(): Job[] {
    const jobs = [...waiting.values()].flat().sort((a, b) => a.id - b.id);
    for (const job of jobs) {
      if (job.waitTimer) clearTimeout(job.waitTimer);
      job.waitTimer = null;
    }
    waiting = new Map();
    queued = 0;
    return jobs;
  }

  function timedOut(slot: Slot): void {
    const job = slot.job;
    if (!job || !removeSlot(slot)) return;
    slot.job = null;
    counters.timeouts++;
    // Terminating is the only way to stop a running regex; the thread is replaced at once.
    terminate(slot.worker);
    const verdict: RegexVerdict = { compiles: false, error: REGEX_TOO_SLOW_MESSAGE };
    // Too slow for one sample is reason enough to refuse the pattern: it is not tried again.
    rememberIn(slowPatterns, settings.slowPatternCacheSize, job.pattern, verdict);
    job.settle(verdict);
    if (!closed) spawn();
    pump();
  }

  function start(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    counters.jobsStarted++;
    job.started = true;
    add(running, job.client, 1);
    lastStarted.set(job.client, ++starts);
    slot.worker.postMessage({ id: job.id, pattern: job.pattern, sample: job.sample } satisfies RegexJobMessage);
    slot.timer = setTimeout(() => timedOut(slot), settings.timeoutMs);
  }

  function pump(): void {
    if (closed) return;
    for (const slot of slots) {
      if (queued === 0) break;
      if (slot.ready && !slot.job) start(slot, takeNextJob()!);
    }
    // The whole pool starts with the first check still waiting, so that the next ones find a thread ready.
    if (queued > 0) while (slots.length < settings.poolSize) spawn();
    // Idle threads must not keep the process alive; starting ones do, as a check is waiting for them.
    for (const slot of slots) {
      if (slot.ready && !slot.job) slot.worker.unref();
    }
  }

  function refuse(message: string, status: 429 | 503, retryAfterSeconds: number): Promise<never> {
    counters.refusals++;
    return Promise.reject(new CheckBusyError(message, status, retryAfterSeconds));
  }

  function evaluate(pattern: string, sample: string | null, client: string): Promise<RegexVerdict> {
    if (closed) return Promise.reject(new CheckUnavailableError('The regex tester is closed'));
    if (pattern.length > settings.maxPatternLength) {
      return Promise.resolve({
        compiles: false,
        error: `Invalid regex: the pattern is longer than ${settings.maxPatternLength} characters`,
      });
    }
    const slow = slowPatterns.get(pattern);
    if (slow) {
      counters.slowPatternHits++;
      rememberIn(slowPatterns, settings.slowPatternCacheSize, pattern, slow);
      return Promise.resolve(slow);
    }
    const key = JSON.stringify([pattern, sample]);
    const known = cache.get(key);
    if (known) {
      counters.cacheHits++;
      remember(key, known);
      return Promise.resolve(known);
    }
    const underWayCheck = inFlight.get(key);
    if (underWayCheck) {
      counters.cacheHits++;
      return underWayCheck;
    }
    if (client !== NO_CLIENT && (underWay.get(client) ?? 0) >= settings.maxPerClient) {
      return refuse(
        `Too many pattern checks from your address are under way (at most ${settings.maxPerClient} at once); please retry when they have been answered`,
        429,
        capRetryAfter(settings.timeoutMs),
      );
    }
    if (queued >= settings.maxQueueLength) {
      return refuse('Too many pattern checks are waiting; please retry in a few seconds', 503, Math.ceil(settings.maxQueueWaitMs / 1000));
    }
    const verdict = new Promise<RegexVerdict>((resolve, reject) => {
      const done = () => {
        inFlight.delete(key);
        add(underWay, client, -1);
        if (!underWay.has(client)) lastStarted.delete(client);
        if (job.started) add(running, client, -1);
        if (job.waitTimer) clearTimeout(job.waitTimer);
        job.waitTimer = null;
      };
      const job: Job = {
        id: nextJobId++,
        pattern,
        sample,
        client,
        started: false,
        waitTimer: null,
        settle: (answer) => {
          done();
          remember(key, answer);
          resolve(answer);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      };
      job.waitTimer = setTimeout(() => {
        job.waitTimer = null;
        unqueue(job);
        counters.refusals++;
        job.fail(
          new CheckBusyError(
            'The pattern checks are busy; please retry in a few seconds',
            503,
            Math.max(1, Math.ceil(settings.maxQueueWaitMs / 1000)),
          ),
        );
      }, settings.maxQueueWaitMs);
      const jobs = waiting.get(client);
      if (jobs) jobs.push(job);
      else waiting.set(client, [job]);
      queued++;
    });
    add(underWay, client, 1);
    inFlight.set(key, verdict);
    pump();
    return verdict;
  }

  const regexTest: RegexTest = async (pattern, sample, client = NO_CLIENT) => {
    if (sample !== null && sample.length > settings.maxSampleLength) {
      // Not worth a thread: such a sample is no identifier. The pattern is still judged on its own.
      const alone = await evaluate(pattern, null, client);
      return alone.compiles ? { compiles: true, matches: false } : { ...alone };
    }
    // A copy, so that a caller editing its verdict does not edit the cache.
    return { ...(await evaluate(pattern, sample, client)) };
  };

  function close(): Promise<void> {
    if (closing) return closing;
    closed = true;
    const refusal = () => new CheckUnavailableError('The regex tester is closed');
    for (const job of dropWaiting()) job.fail(refusal());
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
      queued,
    };
  }

  return { regexTest, close, stats };
}
