/**
 * The one throttle of wrong curator tokens (issue 21 item 9), for every place the token is checked: the
 * bearer token of the curation and maintenance APIs, of the persons' reads and of the queue board, and the
 * desk's sign-in form. Wrong tries are counted per client address in Redis (under QUEUE_PREFIX, so every
 * registry process shares the count); after FREE_WRONG_TRIES in a window, each further wrong try is answered
 * 429 with a Retry-After that doubles with every try, up to MAX_DELAY_SECONDS.
 *
 * The right token is never throttled: the callers compare it first (in constant time, bearer-token.ts) and
 * only a wrong one reaches the throttle, so a flood of wrong tokens from a shared address cannot lock the
 * curators out, and what the throttle does (a Redis round trip, its answer) depends on nothing but the
 * comparison's verdict, never on how close the guess was. The price of that: a throttled address still
 * learns whether a try was right. What keeps the token from being guessed is its length (CURATOR_TOKEN has
 * at least 32 characters, config.ts) and the address rate limits; the throttle makes well-behaved clients
 * back off, makes every wrong try cost the guesser an ever longer wait if it obeys, and keeps the count for
 * the whole deployment rather than per process.
 *
 * Redis down or slow (the rate limits' store timeout, consumeSharedOrLocal): the wrong try is counted in this process's memory instead, so
 * guessing stays throttled (per process, which is conservative enough: the count is only split by the number
 * of processes) and no answer waits on Redis; the right token never needs Redis at all.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { DomainError } from '../../core/domain-error.js';
import { consumeSharedOrLocal } from '../../http/rate-limiter.js';
import type { Logger } from '../../lib/logger.js';

/** Wrong tokens an address may send in a window before its wrong tries are answered 429. */
export const FREE_WRONG_TRIES = 10;
/** The window the wrong tries are counted in (from the first). */
export const WRONG_TRY_WINDOW_SECONDS = 60 * 60;
/** The longest Retry-After a wrong try is told. */
export const MAX_DELAY_SECONDS = 15 * 60;

export const TOO_MANY_WRONG_TOKENS = 'Too many wrong curator tokens were sent from your address';
export const TOO_MANY_WRONG_TOKENS_MESSAGE = `${TOO_MANY_WRONG_TOKENS}: wait the seconds the Retry-After header gives before the next try`;

export interface WrongTokenThrottleOptions {
  redis: Redis;
  /** QUEUE_PREFIX: what keeps deployments sharing one Redis apart, and what teardown deletes. */
  queuePrefix: string;
  /** Told (once a minute at most) when Redis fails to count and the wrong tries are counted in memory. */
  logger: Logger;
}

function counter(options: { storeClient?: Redis; keyPrefix: string }): RateLimiterAbstract {
  const settings = { keyPrefix: options.keyPrefix, points: FREE_WRONG_TRIES, duration: WRONG_TRY_WINDOW_SECONDS };
  return options.storeClient ? new RateLimiterRedis({ ...settings, storeClient: options.storeClient, rejectIfRedisNotReady: true }) : new RateLimiterMemory(settings);
}

export class WrongTokenThrottle {
  readonly #shared: RateLimiterAbstract;
  readonly #local: RateLimiterAbstract;
  readonly #logger: Logger;
  #warnedAt = 0;

  constructor(options: WrongTokenThrottleOptions) {
    const keyPrefix = `${options.queuePrefix}:curator-token-tries`;
    this.#shared = counter({ storeClient: options.redis, keyPrefix });
    this.#local = counter({ keyPrefix });
    this.#logger = options.logger;
  }

  /**
   * Counts a wrong token from `client`: 0 while the address is within its free tries, else the seconds it is
   * told to wait (Retry-After): 1, 2, 4, ... for each try beyond them, at most MAX_DELAY_SECONDS and never
   * past the end of the window.
   */
  async countWrongTry(client: string): Promise<number> {
    const counted = await this.#count(client);
    const beyond = counted.consumedPoints - FREE_WRONG_TRIES;
    if (beyond <= 0) return 0;
    const doubling = 2 ** Math.min(beyond - 1, 30);
    return Math.max(1, Math.min(doubling, MAX_DELAY_SECONDS, Math.ceil(counted.msBeforeNext / 1000)));
  }

  /** Counts a wrong token from `client` and throws the 429 refusal when the address is past its free tries. */
  async refuseWhenThrottled(client: string): Promise<void> {
    const wait = await this.countWrongTry(client);
    if (wait > 0) throw new WrongTokenThrottled(wait);
  }

  async #count(client: string): Promise<RateLimiterRes> {
    try {
      return await consumeSharedOrLocal(this.#shared, this.#local, client, 1, this.#warn);
    } catch (rejection) {
      // Past the free tries the limiter rejects with the count: that is the answer wanted here.
      if (rejection instanceof RateLimiterRes) return rejection;
      throw rejection;
    }
  }

  // Once a minute at most: while Redis fails, every wrong try would say so.
  readonly #warn = (error: unknown): void => {
    if (Date.now() - this.#warnedAt < 60_000) return;
    this.#warnedAt = Date.now();
    this.#logger.warn({ err: error }, 'wrong curator token count store failed; counting in memory meanwhile');
  };
}

/** The 429 refusal of a throttled wrong token: the error translator answers it with Retry-After. */
export class WrongTokenThrottled extends DomainError {
  constructor(readonly waitSeconds: number) {
    super('rate-limited', TOO_MANY_WRONG_TOKENS_MESSAGE, { retryAfterSeconds: waitSeconds });
  }
}
