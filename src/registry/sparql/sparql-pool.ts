/**
 * The SPARQL endpoint's worker threads (sparql-worker.ts): a small pool, each thread holding the current
 * build's RDF. Oxigraph runs a query synchronously and cannot be interrupted, so a query that outlives
 * its time limit costs one terminated thread (and its memory) and a clear 503, while the HTTP process's
 * event loop never runs a query at all.
 *
 * Shared fairly between clients as the regex checks are (regex-tester.ts): each client may have
 * `perClient` queries waiting or running (more: 429), a free thread takes the oldest query of the waiting
 * client with the fewest running, a query waits `queueWaitMs` at most for a thread (then 503), and at most
 * `maxQueueLength` wait in all (then 503).
 *
 * A new build (another `key`) is loaded by each thread when it is next idle; a query is only ever given
 * to a thread holding the build that was current when it arrived or a newer one.
 */
import { Worker } from 'node:worker_threads';
import { DomainError } from '../../core/domain-error.js';
import { locateCompiledWorker } from '../../lib/compiled-worker.js';
import type { Logger } from '../../lib/logger.js';
import type { SparqlLoadMessage, SparqlQueryMessage, SparqlWorkerMessage } from './sparql-worker.js';

export interface SparqlSource {
  /** Names the build: a thread holding another key loads this one. */
  key: string;
  dataset: Uint8Array;
  triples: Uint8Array;
}

export interface SparqlPoolOptions {
  /** Threads, started on the first query (SPARQL_THREADS). */
  threads: number;
  /** Longest a query runs before its thread is terminated (SPARQL_TIMEOUT_MS). */
  timeoutMs: number;
  /** Queries one client may have waiting or running (SPARQL_QUERIES_PER_CLIENT). */
  perClient: number;
  /** Longest answer, in bytes of its text (SPARQL_MAX_RESULT_BYTES). */
  maxResultBytes: number;
  /** Longest a query waits for a thread (default 15 s). */
  queueWaitMs?: number;
  /** Queries waiting for a thread, at most (default 200). */
  maxQueueLength?: number;
  /** IRIs of a query looked up for owl:sameAs links, at most (default 500). */
  maxLinkedIris?: number;
  /** Longest a thread may take to load a build before it is given up (default 120 s). */
  loadTimeoutMs?: number;
  publicResolverUrl: string;
  publicRegistryUrl: string;
  logger?: Logger;
}

export interface SparqlAnswer {
  body: Buffer;
  mediaType: string;
}

export interface SparqlPoolStats {
  /** Queries handed to a thread since creation. */
  started: number;
  threads: number;
  running: number;
  queued: number;
  timeouts: number;
  loads: number;
}

// The registry's RDF and snapshot take some tens of MB; the query's own WebAssembly memory is not counted
// here (its bound is the time limit).
const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256 };

interface Job {
  id: number;
  client: string;
  query: string;
  mediaType: string;
  started: boolean;
  waitTimer: NodeJS.Timeout | null;
  resolve: (answer: SparqlAnswer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The generation of the build it holds (0: none yet). */
  generation: number;
  loading: boolean;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class SparqlPool {
  readonly #options: Required<Omit<SparqlPoolOptions, 'logger'>> & { logger?: Logger };
  readonly #workerUrl: URL;
  #slots: Slot[] = [];
  #source: SparqlSource | null = null;
  #generation = 0;
  #waiting: Job[] = [];
  readonly #underWay = new Map<string, number>();
  readonly #running = new Map<string, number>();
  #nextId = 1;
  #closed = false;
  #started = 0;
  #timeouts = 0;
  #loads = 0;
  readonly #terminating = new Set<Promise<unknown>>();

  constructor(options: SparqlPoolOptions) {
    this.#options = { queueWaitMs: 15_000, maxQueueLength: 200, maxLinkedIris: 500, loadTimeoutMs: 120_000, ...options };
    this.#workerUrl = locateCompiledWorker(import.meta.url, 'sparql-worker.js');
  }

  /** The build queries are answered from; a new key is loaded by every thread before its next query. */
  setSource(source: SparqlSource): void {
    if (this.#source?.key === source.key) return;
    this.#source = source;
    this.#generation++;
    this.#pump();
  }

  /** The key of the build queries are answered from (null before the first). */
  get sourceKey(): string | null {
    return this.#source?.key ?? null;
  }

  /**
   * Runs `query`, answering its text in `mediaType`. Rejects with a DomainError: invalid (the parser's or
   * evaluator's message, or an answer over the size limit), busy (the client's cap), unavailable (time
   * limit, queue full or waited too long, the store could not be loaded).
   */
  run(query: string, mediaType: string, client: string): Promise<SparqlAnswer> {
    if (this.#closed) return Promise.reject(new DomainError('unavailable', 'The SPARQL endpoint is shutting down', { retryAfterSeconds: 5 }));
    if (!this.#source) return Promise.reject(new Error('SparqlPool.run before setSource'));
    const { perClient, maxQueueLength, queueWaitMs, timeoutMs } = this.#options;
    if ((this.#underWay.get(client) ?? 0) >= perClient) {
      return Promise.reject(
        new DomainError('busy', `Too many SPARQL queries from your address are under way (at most ${perClient} at once); send the next one when one has been answered`, {
          retryAfterSeconds: seconds(timeoutMs),
        }),
      );
    }
    if (this.#waiting.length >= maxQueueLength) {
      return Promise.reject(new DomainError('unavailable', 'Too many SPARQL queries are waiting; retry in a few seconds', { retryAfterSeconds: seconds(queueWaitMs) }));
    }
    add(this.#underWay, client, 1);
    return new Promise<SparqlAnswer>((resolve, reject) => {
      const done = () => {
        add(this.#underWay, client, -1);
        if (job.started) add(this.#running, client, -1);
        if (job.waitTimer) clearTimeout(job.waitTimer);
        job.waitTimer = null;
      };
      const job: Job = {
        id: this.#nextId++,
        client,
        query,
        mediaType,
        started: false,
        waitTimer: null,
        resolve: (answer) => {
          done();
          resolve(answer);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      job.waitTimer = setTimeout(() => {
        job.waitTimer = null;
        this.#waiting = this.#waiting.filter((waiting) => waiting !== job);
        job.reject(new DomainError('unavailable', 'The SPARQL endpoint is busy; retry in a few seconds', { retryAfterSeconds: seconds(queueWaitMs) }));
      }, queueWaitMs);
      this.#waiting.push(job);
      this.#pump();
    });
  }

  stats(): SparqlPoolStats {
    return {
      started: this.#started,
      threads: this.#slots.length,
      running: this.#slots.filter((slot) => slot.job).length,
      queued: this.#waiting.length,
      timeouts: this.#timeouts,
      loads: this.#loads,
    };
  }

  /** Refuses new queries, fails the waiting and running ones and terminates every thread. */
  async close(): Promise<void> {
    this.#closed = true;
    const closing = () => new DomainError('unavailable', 'The SPARQL endpoint is shutting down', { retryAfterSeconds: 5 });
    for (const job of this.#waiting) job.reject(closing());
    this.#waiting = [];
    for (const slot of this.#slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.job?.reject(closing());
      slot.job = null;
      this.#terminate(slot.worker);
    }
    this.#slots = [];
    await Promise.all([...this.#terminating]);
  }

  /** The oldest waiting query of the client with the fewest running (its oldest first among equals). */
  #takeNext(): Job | undefined {
    let chosen: Job | undefined;
    let chosenRunning = 0;
    for (const job of this.#waiting) {
      const running = this.#running.get(job.client) ?? 0;
      if (!chosen || running < chosenRunning) {
        chosen = job;
        chosenRunning = running;
      }
    }
    if (chosen) this.#waiting = this.#waiting.filter((job) => job !== chosen);
    return chosen;
  }

  #pump(): void {
    if (this.#closed) return;
    for (const slot of this.#slots) {
      if (!slot.ready || slot.job || slot.loading) continue;
      if (slot.generation !== this.#generation && this.#source) {
        this.#load(slot, this.#source);
        continue;
      }
      if (this.#waiting.length === 0) continue;
      this.#start(slot, this.#takeNext()!);
    }
    if (this.#waiting.length > 0) while (this.#slots.length < this.#options.threads) this.#spawn();
    // Idle threads must not keep the process alive; busy ones do, as a client is waiting for them.
    for (const slot of this.#slots) {
      if (slot.ready && !slot.job && !slot.loading) slot.worker.unref();
      else slot.worker.ref();
    }
  }

  #spawn(): void {
    // execArgv: []: the parent's flags (e.g. jest's --experimental-vm-modules) have no business here.
    const worker = new Worker(this.#workerUrl, { execArgv: [], resourceLimits: WORKER_RESOURCE_LIMITS });
    const slot: Slot = { worker, ready: false, generation: 0, loading: false, job: null, timer: null };
    this.#slots.push(slot);
    worker.on('message', (message: SparqlWorkerMessage) => this.#received(slot, message));
    worker.on('error', (error: Error) => this.#stopped(slot, error));
    worker.on('exit', () => this.#stopped(slot, null));
  }

  #load(slot: Slot, source: SparqlSource): void {
    slot.loading = true;
    this.#loads++;
    const generation = this.#generation;
    const message: SparqlLoadMessage = {
      type: 'load',
      key: String(generation),
      dataset: source.dataset,
      triples: source.triples,
      publicResolverUrl: this.#options.publicResolverUrl,
      publicRegistryUrl: this.#options.publicRegistryUrl,
    };
    slot.worker.postMessage(message);
    slot.timer = setTimeout(() => this.#loadFailed(slot, `loading took longer than ${this.#options.loadTimeoutMs} ms`), this.#options.loadTimeoutMs);
  }

  #received(slot: Slot, message: SparqlWorkerMessage): void {
    if (!this.#slots.includes(slot)) return;
    switch (message.type) {
      case 'ready':
        slot.ready = true;
        break;
      case 'loaded':
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.loading = false;
        slot.generation = Number(message.key);
        break;
      case 'load-failed':
        this.#loadFailed(slot, message.message);
        return;
      default: {
        const job = slot.job;
        if (!job || message.id !== job.id) break;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = null;
        slot.job = null;
        if (message.type === 'answer') {
          job.resolve({ body: Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength), mediaType: job.mediaType });
        } else if (message.type === 'too-large') {
          job.reject(
            new DomainError(
              'invalid',
              `The answer would be ${message.bytes} bytes, more than the limit of ${this.#options.maxResultBytes}; narrow the query or add a LIMIT`,
            ),
          );
        } else {
          job.reject(new DomainError('invalid', `Malformed or unanswerable SPARQL query: ${message.message}`));
        }
      }
    }
    this.#pump();
  }

  /** A thread could not load the build: the queries waiting for it are answered 503, the thread replaced. */
  #loadFailed(slot: Slot, reason: string): void {
    this.#options.logger?.error({ reason }, 'a SPARQL thread could not load the registry RDF');
    this.#remove(slot);
    this.#terminate(slot.worker);
    for (const job of this.#waiting) {
      job.reject(new DomainError('unavailable', 'The SPARQL store could not be loaded; retry later', { retryAfterSeconds: 30 }));
    }
    this.#waiting = [];
  }

  #start(slot: Slot, job: Job): void {
    slot.job = job;
    job.started = true;
    this.#started++;
    add(this.#running, job.client, 1);
    if (job.waitTimer) clearTimeout(job.waitTimer);
    job.waitTimer = null;
    const message: SparqlQueryMessage = {
      type: 'query',
      id: job.id,
      query: job.query,
      mediaType: job.mediaType,
      maxResultBytes: this.#options.maxResultBytes,
      maxLinkedIris: this.#options.maxLinkedIris,
    };
    slot.worker.postMessage(message);
    slot.timer = setTimeout(() => this.#timedOut(slot), this.#options.timeoutMs);
  }

  #timedOut(slot: Slot): void {
    const job = slot.job;
    if (!job || !this.#remove(slot)) return;
    slot.job = null;
    this.#timeouts++;
    // Terminating is the only way to stop a running query. The replacement starts loading at once, so that
    // the next query does not wait for the load.
    this.#terminate(slot.worker);
    if (!this.#closed) this.#spawn();
    job.reject(
      new DomainError(
        'unavailable',
        `The query ran longer than the time limit of ${this.#options.timeoutMs} ms and was stopped; narrow it (fewer joins, a LIMIT) and send it again`,
        { retryAfterSeconds: 1 },
      ),
    );
    this.#pump();
  }

  /** The thread died on its own (out of memory, a crash, a failed start). */
  #stopped(slot: Slot, error: Error | null): void {
    if (!this.#remove(slot)) return;
    const job = slot.job;
    slot.job = null;
    const reason = error?.message ?? 'it exited';
    job?.reject(new DomainError('unavailable', `The SPARQL thread answering the query stopped (${reason}); retry, or narrow the query`, { retryAfterSeconds: 1 }));
    if (!slot.ready || slot.loading) {
      // A thread that cannot start or load would fail the same way again: answer the waiting queries.
      this.#options.logger?.error({ err: error }, 'a SPARQL thread stopped while starting or loading');
      for (const waiting of this.#waiting) waiting.reject(new DomainError('unavailable', 'The SPARQL endpoint cannot start; retry later', { retryAfterSeconds: 30 }));
      this.#waiting = [];
      return;
    }
    this.#pump();
  }

  #remove(slot: Slot): boolean {
    if (!this.#slots.includes(slot)) return false;
    this.#slots = this.#slots.filter((s) => s !== slot);
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    return true;
  }

  #terminate(worker: Worker): void {
    const done = worker.terminate().catch(() => undefined);
    this.#terminating.add(done);
    void done.finally(() => this.#terminating.delete(done));
  }
}

function add(counts: Map<string, number>, client: string, delta: number): void {
  const count = (counts.get(client) ?? 0) + delta;
  if (count <= 0) counts.delete(client);
  else counts.set(client, count);
}
