import type { Context, Middleware } from 'koa';
import type { FamilyLimiter, RateLimitFamily, RateLimitOutcome, RateLimits } from './rate-limiter.js';
import { bearerTokenOf } from './bearer-token.js';
import { ratelimitField } from './error-translator.js';
import { METRICS_PATH } from '../metrics/scrape.js';
import { healthMethodsAt } from './health.js';

/** The route family a request counts against, or null for one never limited (health checks, /metrics). */
export type FamilyOfRequest = (method: string, path: string) => RateLimitFamily | null;

/**
 * Never limited, whichever area: what monitors and the balancer ask, however often. Exactly the paths the
 * health and metrics middleware answer (health.ts, metrics-middleware.ts), which compare the path as sent:
 * `/Health/ready` or `/health/anything` reach the routers and are limited as any other request.
 */
export function isUnlimitedPath(path: string): boolean {
  return path === METRICS_PATH || healthMethodsAt(path) !== undefined;
}

type Charge = (points: number) => Promise<void>;
const CHARGE = Symbol('rate limit charge of the request');

function advertise(ctx: Context, limiter: FamilyLimiter, outcome: RateLimitOutcome): void {
  ctx.set('RateLimit-Policy', limiter.policyField);
  ctx.set('RateLimit', ratelimitField(limiter.family, outcome.remaining, outcome.resetSeconds));
}

/**
 * Counts each request against its family's limit (rate-limiter.ts) before its route sees it; over the
 * limit, the request is answered 429 by the error translator. A curator's request (the curator token, or
 * `curatorRequest`) is never counted. With `advertise`, every counted answer without a bearer token tells the
 * client its quota (RateLimit-Policy and RateLimit); otherwise only refusals do.
 */
export function limitRequests(
  limits: RateLimits,
  familyOf: FamilyOfRequest,
  options: {
    advertise: boolean;
    /** Another way a request shows it is a curator's (a signed-in curator desk session). */
    curatorRequest?: (ctx: Context) => Promise<boolean>;
  },
): Middleware {
  return async function rateLimit(ctx, next) {
    const family = familyOf(ctx.method, ctx.path);
    const limiter = family === null ? undefined : limits.families[family];
    if (!limiter || limits.exempt(ctx.get('Authorization') || undefined)) return next();
    if (options.curatorRequest && (await options.curatorRequest(ctx))) return next();
    const client = ctx.ip;
    // A request with a bearer token that is not the curator's is counted, but its answer does not advertise
    // the quota: were it to, the headers' absence would tell a guesser the token was right, one request a
    // guess, bypassing the wrong-token throttle. Without them, telling costs a whole window's limit a guess.
    const advertising = options.advertise && bearerTokenOf(ctx.get('Authorization') || undefined) === undefined;
    const outcome = await limiter.take(client);
    if (!outcome.allowed) throw limiter.error(outcome);
    if (advertising) advertise(ctx, limiter, outcome);
    const charge: Charge = async (points) => {
      const more = await limiter.take(client, points);
      if (!more.allowed) throw limiter.error(more);
      if (advertising) advertise(ctx, limiter, more);
    };
    (ctx.state as Record<symbol, Charge>)[CHARGE] = charge;
    return next();
  };
}

/**
 * Counts `points` more units against the limit the request was counted against (a batch's items beyond its
 * first), once its route knows them; throws the 429 refusal when they go over. Nothing without a limit.
 */
export async function chargeMore(ctx: Context, points: number): Promise<void> {
  const charge = (ctx.state as Record<symbol, Charge | undefined>)[CHARGE];
  if (charge && points > 0) await charge(points);
}
