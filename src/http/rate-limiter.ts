/**
 * Rate limits per client address and route family (rate-limiter-flexible): a fixed window of a minute per
 * family, counted in memory in each resolver process (the resolver's hot path may not wait on Redis) or in
 * Redis for the registry area (shared by every registry process, with an in-memory stand-in while Redis
 * fails). Refusals are DomainErrors of kind rate-limited, which the error translator answers 429 with
 * Retry-After, RateLimit and RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-10).
 */
import type { ServerResponse } from 'node:http';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { DomainError, type QuotaState } from '../core/domain-error.js';
import { addBareHeader, prepareErrorAnswer, sendErrorAnswer, type PreparedErrorAnswer } from './bare-request.js';
import { carriesBearerToken, carriesCuratorToken } from './bearer-token.js';
import { withTimeout } from '../lib/with-timeout.js';
import { quotaHeaders, ratelimitPolicyField } from './error-translator.js';

export const RATE_LIMIT_FAMILIES = ['resolution', 'reverse', 'batch', 'validators', 'submissions', 'browse', 'dataset'] as const;
export type RateLimitFamily = (typeof RATE_LIMIT_FAMILIES)[number];

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** What each family's quota counts, for the refusal's message. */
const UNITS: Record<RateLimitFamily, string> = {
  resolution: 'resolutions',
  reverse: 'reverse lookups',
  batch: 'batch items',
  validators: 'validation requests',
  submissions: 'submissions and other writes',
  browse: 'registry reads',
  dataset: 'whole-registry downloads',
};

type RateLimitSetting =
  | 'RATE_LIMIT_RESOLUTION'
  | 'RATE_LIMIT_REVERSE'
  | 'RATE_LIMIT_BATCH'
  | 'RATE_LIMIT_VALIDATORS'
  | 'RATE_LIMIT_SUBMISSIONS'
  | 'RATE_LIMIT_BROWSE'
  | 'RATE_LIMIT_DATASET';

export const SETTING_OF_FAMILY: Record<RateLimitFamily, RateLimitSetting> = {
  resolution: 'RATE_LIMIT_RESOLUTION',
  reverse: 'RATE_LIMIT_REVERSE',
  batch: 'RATE_LIMIT_BATCH',
  validators: 'RATE_LIMIT_VALIDATORS',
  submissions: 'RATE_LIMIT_SUBMISSIONS',
  browse: 'RATE_LIMIT_BROWSE',
  dataset: 'RATE_LIMIT_DATASET',
};

// A Redis answer slower than this counts as a Redis failure: the in-memory stand-in decides instead, so that a
// Redis that accepts connections but does not answer cannot hold every registry request.
const STORE_TIMEOUT_MS = 250;

/**
 * Counts `points` for `client` in `shared` (Redis), or in `local` (this process's memory) when Redis fails
 * or answers later than STORE_TIMEOUT_MS (as it seems to a process whose event loop was blocked), telling
 * `onFallback`. A refusal (RateLimiterRes) is the store's answer and rejects as it is. Every count that
 * must go on while Redis is away (the rate limits, the wrong-token throttle) goes through here.
 */
export function consumeSharedOrLocal(
  shared: RateLimiterAbstract,
  local: RateLimiterAbstract,
  client: string,
  points: number,
  onFallback: (error: unknown) => void,
): Promise<RateLimiterRes> {
  return withTimeout(shared.consume(client, points), STORE_TIMEOUT_MS, 'the rate limit store').catch((rejection: unknown) => {
    if (rejection instanceof RateLimiterRes) throw rejection;
    onFallback(rejection);
    return local.consume(client, points);
  });
}

/** How a request's quota stands after it was counted. */
export interface RateLimitOutcome {
  allowed: boolean;
  /** Units left in this window, as the whole deployment counts them (an estimate on the resolver). */
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
}

export interface FamilyLimiterOptions {
  family: RateLimitFamily;
  /** Units per client address per window, for the whole deployment (the setting). */
  limit: number;
  /** The counter: a RateLimiterMemory or RateLimiterRedis of `points` per window. */
  limiter: RateLimiterAbstract;
  /** How many processes each count a share of the limit in memory (RESOLVER_INSTANCES); 1 when shared. */
  share: number;
  /** With a store that can fail: the in-memory stand-in asked when it fails or is slow. */
  insurance?: RateLimiterAbstract;
  /** Told about a failure of the counter (the request is then let through). */
  onError: (error: unknown) => void;
  /** Told each time the stand-in counted a request because the store failed or was slow. */
  onFallback?: (error: unknown) => void;
}

/** One route family's limit. */
export class FamilyLimiter {
  readonly family: RateLimitFamily;
  readonly limit: number;
  /** The RateLimit-Policy field, written once. */
  readonly policyField: string;
  /** The 429 answer's status and envelope, written once; the bare handlers add the headers of each refusal. */
  readonly refusal: PreparedErrorAnswer;
  readonly #message: string;
  readonly #limiter: RateLimiterAbstract;
  readonly #insurance: RateLimiterAbstract | undefined;
  readonly #share: number;
  readonly #onError: (error: unknown) => void;
  readonly #onFallback: (error: unknown) => void;

  constructor(options: FamilyLimiterOptions) {
    this.family = options.family;
    this.limit = options.limit;
    this.policyField = ratelimitPolicyField(options.family, options.limit, RATE_LIMIT_WINDOW_SECONDS);
    this.#message =
      `Too many ${UNITS[options.family]} from your address: at most ${options.limit.toLocaleString('en')} a minute; ` +
      'the Retry-After header says when to send the next';
    this.refusal = prepareErrorAnswer(new DomainError('rate-limited', this.#message));
    this.#limiter = options.limiter;
    this.#insurance = options.insurance;
    this.#share = options.share;
    this.#onError = options.onError;
    this.#onFallback = options.onFallback ?? options.onError;
  }

  /**
   * Counts `points` units for `client` and calls `allowed` or `refused` (on a later microtask). A failing
   * counter lets the request through: a limiter must never be what takes the service down.
   */
  run(client: string, points: number, allowed: () => void, refused: (outcome: RateLimitOutcome) => void): void {
    this.#limiter.consume(client, points).then(allowed, (rejection: unknown) => {
      if (rejection instanceof RateLimiterRes) return refused(this.outcomeOf(rejection, false));
      this.#onError(rejection);
      allowed();
    });
  }

  /** Counts `points` units for `client`; never rejects (see run). */
  async take(client: string, points = 1): Promise<RateLimitOutcome> {
    try {
      return this.outcomeOf(await this.#consume(client, points), true);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.outcomeOf(rejection, false);
      this.#onError(rejection);
      return { allowed: true, remaining: this.limit, resetSeconds: RATE_LIMIT_WINDOW_SECONDS };
    }
  }

  /** The refusal of an outcome that is not allowed, as a thrown error answers it. */
  error(outcome: RateLimitOutcome): DomainError {
    return new DomainError('rate-limited', this.#message, { retryAfterSeconds: outcome.resetSeconds, quota: this.quotaOf(outcome) });
  }

  quotaOf(outcome: RateLimitOutcome): QuotaState {
    const { remaining, resetSeconds } = outcome;
    return { policy: this.family, limit: this.limit, windowSeconds: RATE_LIMIT_WINDOW_SECONDS, remaining, resetSeconds };
  }

  #consume(client: string, points: number): Promise<RateLimiterRes> {
    const insurance = this.#insurance;
    if (!insurance) return this.#limiter.consume(client, points);
    return consumeSharedOrLocal(this.#limiter, insurance, client, points, this.#onFallback);
  }

  private outcomeOf(res: RateLimiterRes, allowed: boolean): RateLimitOutcome {
    const remaining = Math.min(this.limit, res.remainingPoints * this.#share);
    return { allowed, remaining, resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
  }
}

/** The limiters of one area, by family; a family without one is not limited. */
export interface RateLimits {
  readonly families: Partial<Record<RateLimitFamily, FamilyLimiter>>;
  /** Whether a request with this Authorization header value is never limited (the curator token). */
  exempt(authorization: string | undefined): boolean;
}

interface LimitsOptions {
  config: Pick<Config, 'RATE_LIMITS' | 'CURATOR_TOKEN' | RateLimitSetting> & Partial<Pick<Config, 'SATELLITE_TOKEN'>>;
  families: readonly RateLimitFamily[];
  onError: (error: unknown) => void;
}

interface SharedLimitsOptions extends LimitsOptions {
  redis: Redis;
  keyPrefix: string;
  /** Told each time a family's request was counted in this process's memory because Redis failed or was slow; onError without. */
  onFallback?: (family: RateLimitFamily, error: unknown) => void;
}

function buildLimits(options: LimitsOptions, make: (family: RateLimitFamily, limit: number) => FamilyLimiter): RateLimits {
  const families: Partial<Record<RateLimitFamily, FamilyLimiter>> = {};
  if (options.config.RATE_LIMITS) {
    for (const family of options.families) {
      const limit = options.config[SETTING_OF_FAMILY[family]];
      if (limit > 0) families[family] = make(family, limit);
    }
  }
  const token = options.config.CURATOR_TOKEN;
  // A satellite resolver polls the change feed every second and sends usage batches: it is a part of the
  // deployment, not a client to share the limits with.
  const satelliteToken = options.config.SATELLITE_TOKEN ?? '';
  return {
    families,
    exempt: (authorization) => carriesCuratorToken(authorization, token) || carriesBearerToken(authorization, satelliteToken),
  };
}

/**
 * Limits counted in this process's memory, each allowing limit / instances (rounded up) per window: behind
 * a balancer that spreads a client's requests over `instances` processes, the deployment allows about the
 * limit, with no network round trip per request.
 */
export function memoryRateLimits(options: LimitsOptions & { instances: number }): RateLimits {
  const { instances } = options;
  return buildLimits(options, (family, limit) => {
    const limiter = new RateLimiterMemory({ keyPrefix: family, points: Math.ceil(limit / instances), duration: RATE_LIMIT_WINDOW_SECONDS });
    return new FamilyLimiter({ family, limit, limiter, share: instances, onError: options.onError });
  });
}

/**
 * Limits counted in Redis under `keyPrefix` (one counter per family and address for every process), with
 * an in-memory stand-in per process while Redis fails, and clients over their limit remembered in memory
 * until their window ends, so that a flood's refusals cost no Redis command.
 */
export function redisRateLimits(options: SharedLimitsOptions): RateLimits {
  return buildLimits(options, (family, limit) => {
    const insurance = new RateLimiterMemory({ keyPrefix: `${family}-insurance`, points: limit, duration: RATE_LIMIT_WINDOW_SECONDS });
    const limiter = new RateLimiterRedis({
      storeClient: options.redis,
      keyPrefix: `${options.keyPrefix}:${family}`,
      points: limit,
      duration: RATE_LIMIT_WINDOW_SECONDS,
      inMemoryBlockOnConsumed: limit + 1,
      rejectIfRedisNotReady: true,
      // No insuranceLimiter here: the library would switch to it silently. FamilyLimiter switches instead,
      // and says so (onFallback).
    });
    const onFallback = options.onFallback;
    return new FamilyLimiter({ family, limit, limiter, share: 1, insurance, onError: options.onError, onFallback: onFallback && ((error) => onFallback(family, error)) });
  });
}

/** Answers a refused request on the bare response: the family's prepared 429 with this refusal's headers. */
export function sendRateLimited(res: ServerResponse, limiter: FamilyLimiter, outcome: RateLimitOutcome): void {
  const headers = quotaHeaders(limiter.quotaOf(outcome));
  for (const name in headers) addBareHeader(res, name, headers[name]!);
  sendErrorAnswer(res, limiter.refusal);
}
