/**
 * Fair sharing of the resolver's one event loop between clients (issue 10): a single resolution takes
 * microseconds, while a batch of 1,000 identifiers or a long similarity lookup takes tens of milliseconds,
 * and fifty of them in a row used to hold every other client's request for seconds. So heavy requests
 *  - count against a cap per client (address), beyond which they are answered 429 with Retry-After, and
 *  - do their work in small units handed to this scheduler, which takes units from the clients in turn and
 *    runs at most `turnMs` of them per turn of the event loop: between two turns Node reads and answers
 *    whatever else has arrived, so a single resolution waits a few milliseconds at most.
 */
import type { Middleware } from 'koa';
import { prepareErrorAnswer, type PreparedErrorAnswer } from '../http/bare-request.js';
import { HttpError } from '../http/http-error.js';

export interface HeavyWorkOptions {
  /** Heavy requests one client may have under way (RESOLVER_HEAVY_REQUESTS_PER_CLIENT). */
  perClient: number;
  /** Longest run of heavy work between two turns of the event loop (default 2 ms; a unit may overrun it). */
  turnMs?: number;
  /** Told about a unit that threw (units are expected to handle their own errors). */
  onError?: (error: unknown) => void;
}

/** About how long one unit of heavy work should take: a slice of a batch or of a similarity lookup. */
export const HEAVY_UNIT_MS = 1;
export const HEAVY_RETRY_AFTER_SECONDS = 1;
const DEFAULT_TURN_MS = 2;

/** What a unit answers when the turn must end after it (see runAsync). */
const ENDS_TURN = Symbol('ends the turn');
type Unit = () => void | typeof ENDS_TURN;

export class HeavyWork {
  readonly perClient: number;
  /**
   * The one 429 error, built once: a flood is refused thousands of times a second, and each new Error would
   * capture a stack trace nobody reads.
   */
  readonly refusal: HttpError;
  /** The refusal as the bare handlers send it, its body written once. */
  readonly refusalAnswer: PreparedErrorAnswer;
  readonly #turnMs: number;
  readonly #onError: (error: unknown) => void;
  readonly #underWay = new Map<string, number>();
  /** Clients with units waiting, in the order they get their next turn (a Map keeps insertion order). */
  readonly #waiting = new Map<string, Unit[]>();
  #turnPending = false;

  constructor(options: HeavyWorkOptions) {
    if (!Number.isInteger(options.perClient) || options.perClient < 1) {
      throw new RangeError(`HeavyWork: perClient must be an integer >= 1, got ${options.perClient}`);
    }
    this.perClient = options.perClient;
    this.refusal = tooManyHeavyRequests(options.perClient);
    this.refusalAnswer = prepareErrorAnswer(this.refusal);
    this.#turnMs = options.turnMs ?? DEFAULT_TURN_MS;
    this.#onError = options.onError ?? (() => undefined);
  }

  /** Counts a heavy request of `client`; false (count unchanged) when it already has perClient under way. */
  enter(client: string): boolean {
    const underWay = this.#underWay.get(client) ?? 0;
    if (underWay >= this.perClient) return false;
    this.#underWay.set(client, underWay + 1);
    return true;
  }

  /** Ends a request that enter() counted. */
  leave(client: string): void {
    const underWay = this.#underWay.get(client) ?? 0;
    if (underWay <= 1) this.#underWay.delete(client);
    else this.#underWay.set(client, underWay - 1);
  }

  /** True when `client` has as many heavy requests under way as it may: the next one would be refused. */
  atCap(client: string): boolean {
    return (this.#underWay.get(client) ?? 0) >= this.perClient;
  }

  /** Heavy requests of `client` under way now. */
  underWay(client: string): number {
    return this.#underWay.get(client) ?? 0;
  }

  /** Runs `unit` (about HEAVY_UNIT_MS of work) soon, in turn with the other clients' units. */
  defer(client: string, unit: () => void): void {
    this.#enqueue(client, unit);
  }

  /**
   * Runs `start` as one unit of `client` whose work goes on in promise callbacks (the MCP SDK's handling of
   * a message): those run only once the turn's callback returns, out of the scheduler's sight, so the turn
   * ends right after this unit and its callbacks are the only heavy work until the next turn. Settles as
   * `start`'s promise does.
   */
  runAsync<T>(client: string, start: () => Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      this.#enqueue(client, () => {
        try {
          start().then(resolve, reject);
        } catch (error) {
          reject(error);
        }
        return ENDS_TURN;
      });
    });
  }

  /** Calls `step` in turns, as units of `client`, until it answers true (done). */
  runInTurns(client: string, step: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const unit = (): void => {
        try {
          if (step()) resolve();
          else this.defer(client, unit);
        } catch (error) {
          reject(error);
        }
      };
      this.defer(client, unit);
    });
  }

  #enqueue(client: string, unit: Unit): void {
    const queue = this.#waiting.get(client);
    if (queue) queue.push(unit);
    else this.#waiting.set(client, [unit]);
    this.#scheduleTurn();
  }

  #scheduleTurn(): void {
    if (this.#turnPending) return;
    this.#turnPending = true;
    // setImmediate, not nextTick or a promise: it runs after the poll phase, where new requests are read.
    setImmediate(this.#turn);
  }

  readonly #turn = (): void => {
    this.#turnPending = false;
    const ends = performance.now() + this.#turnMs;
    do {
      const next = this.#waiting.entries().next();
      if (next.done) break;
      const [client, queue] = next.value;
      // One unit per client per round: the client moves to the back of the line.
      this.#waiting.delete(client);
      const unit = queue.shift()!;
      if (queue.length > 0) this.#waiting.set(client, queue);
      let endsTurn = false;
      try {
        endsTurn = unit() === ENDS_TURN;
      } catch (error) {
        this.#onError(error);
      }
      if (endsTurn) break;
    } while (performance.now() < ends);
    if (this.#waiting.size > 0) this.#scheduleTurn();
  };
}

/** 429 in the envelope, with Retry-After: the client has as many heavy requests under way as it may. */
export function tooManyHeavyRequests(perClient: number): HttpError {
  return new HttpError(
    429,
    `Too many heavy requests from your address: at most ${perClient} batches and long similarity lookups may be under way at once; send the next one when one of them has been answered`,
    { 'Retry-After': String(HEAVY_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Counts a request against its client's cap for as long as it is being answered, and answers 429 when the
 * cap is reached. Mounted ahead of the body parser, so that a refused request costs no parsing.
 */
export function countHeavyRequest(work: HeavyWork): Middleware {
  return (ctx, next) => {
    const client = ctx.ip;
    if (!work.enter(client)) throw work.refusal;
    // 'close' comes once the answer is written or the connection is gone, whichever is first.
    ctx.res.once('close', () => work.leave(client));
    return next();
  };
}
