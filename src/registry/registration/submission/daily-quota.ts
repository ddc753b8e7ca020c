/**
 * How many registration requests (of both kinds, through the API or the forms) one client address may have
 * stored per day (REGISTRATION_REQUESTS_PER_DAY). Each stored request mails its requester and waits on the
 * curators' desk: the per-minute limit of writes alone let one address file thousands a day. Counted in
 * Redis under QUEUE_PREFIX, shared by every registry process; an approximate count is enough, so a Redis
 * that fails lets each process count in memory meanwhile (as the per-minute limits do) rather than refuse.
 * Only stored requests count: a requester correcting a refused request is not held back by it.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Config } from '../../../config.js';
import { DomainError } from '../../../core/domain-error.js';

const DAY_SECONDS = 24 * 60 * 60;

/** `3 hours`, `25 minutes`: the wait as a person reads it, rounded up. */
function waitText(seconds: number): string {
  if (seconds >= 5400) return `${Math.ceil(seconds / 3600)} hours`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

export interface RegistrationQuotaOptions {
  /** Requests per client address per day; 0: unlimited. */
  perDay: number;
  redis: Redis;
  /** Where the counters live (under QUEUE_PREFIX, which teardown clears). */
  keyPrefix: string;
  /** Told about a failure of the counter (the request is then counted in memory, or let through), once a minute at most. */
  onError: (error: unknown) => void;
}

/** The configured quota; none when rate limits are off (RATE_LIMITS=false) or REGISTRATION_REQUESTS_PER_DAY is 0. */
export function registrationQuota(
  config: Pick<Config, 'RATE_LIMITS' | 'REGISTRATION_REQUESTS_PER_DAY' | 'QUEUE_PREFIX'>,
  redis: Redis,
  onError: (error: unknown) => void,
): RegistrationQuota | undefined {
  if (!config.RATE_LIMITS || config.REGISTRATION_REQUESTS_PER_DAY === 0) return undefined;
  return new RegistrationQuota({ perDay: config.REGISTRATION_REQUESTS_PER_DAY, redis, keyPrefix: `${config.QUEUE_PREFIX}:registration-requests`, onError });
}

export class RegistrationQuota {
  readonly perDay: number;
  readonly #limiter: RateLimiterRedis;
  readonly #onError: (error: unknown) => void;
  #warnedAt = 0;

  constructor(options: RegistrationQuotaOptions) {
    this.perDay = options.perDay;
    // While Redis fails, every request would say so.
    this.#onError = (error) => {
      if (Date.now() - this.#warnedAt < 60_000) return;
      this.#warnedAt = Date.now();
      options.onError(error);
    };
    this.#limiter = new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: options.keyPrefix,
      points: options.perDay,
      duration: DAY_SECONDS,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${options.keyPrefix}-insurance`, points: options.perDay, duration: DAY_SECONDS }),
    });
  }

  /** Refuses (rate-limited, with the wait) when `client` has used up today's requests; before any check runs. */
  async refuseWhenUsedUp(client: string): Promise<void> {
    let res: RateLimiterRes | null;
    try {
      res = await this.#limiter.get(client);
    } catch (error) {
      this.#onError(error);
      return;
    }
    if (res && res.consumedPoints >= this.perDay) throw this.#refusal(res);
  }

  /** Counts a request of `client` about to be stored; refuses it when that is one too many (a race with another). */
  async take(client: string): Promise<void> {
    try {
      await this.#limiter.consume(client, 1);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw this.#refusal(rejection);
      this.#onError(rejection);
    }
  }

  #refusal(res: RateLimiterRes): DomainError {
    const resetSeconds = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return new DomainError(
      'rate-limited',
      `Too many registration requests from your address: at most ${this.perDay} a day. Nothing was stored; please send it again in ${waitText(resetSeconds)} (Retry-After)`,
      { quota: { policy: 'registration-requests', limit: this.perDay, windowSeconds: DAY_SECONDS, remaining: 0, resetSeconds } },
    );
  }
}
