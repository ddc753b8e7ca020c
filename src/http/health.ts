import type { Middleware } from 'koa';
import { envelope, errorEnvelope } from './envelope.js';
import { HEAD_AND_GET } from './unserved-methods.js';

export interface DependencyCheck {
  name: string;
  /** Resolves when the dependency answers; rejects with a reason otherwise. */
  check: () => Promise<void>;
}

export interface ReadinessVerdict {
  status: 'ok' | 'degraded' | 'unavailable';
  /** Degraded still serves (answers 200); unavailable answers 503. */
  reason?: string;
  checks: Record<string, string>;
}

/** Lets an area decide what a failing dependency means for it (the resolver can serve from memory). */
export type ReadinessPolicy = (failures: Record<string, string>, checks: Record<string, string>) => ReadinessVerdict;

export const strictReadiness: ReadinessPolicy = (failures, checks) => {
  const names = Object.keys(failures);
  if (names.length === 0) return { status: 'ok', checks };
  return {
    status: 'unavailable',
    reason: names.map((n) => `${n}: ${failures[n]}`).join('; '),
    checks,
  };
};

interface CheckResults {
  results: Record<string, string>;
  failures: Record<string, string>;
}

async function runChecks(checks: DependencyCheck[]): Promise<CheckResults> {
  const results: Record<string, string> = {};
  const failures: Record<string, string> = {};
  await Promise.all(
    checks.map(async ({ name, check }) => {
      try {
        await check();
        results[name] = 'ok';
      } catch (error) {
        const reason = (error as Error).message || 'failed';
        results[name] = `failing: ${reason}`;
        failures[name] = reason;
      }
    }),
  );
  return { results, failures };
}

/** How old the dependencies' answers may be when /health/ready reports them. */
export const READINESS_MAX_AGE_MS = 1000;

/**
 * The dependencies' answers, asked at most once per READINESS_MAX_AGE_MS and never twice at the same time:
 * a flood of /health/ready (it is never rate-limited) costs the databases one check a second, however many
 * callers. A result is as old as the moment its check started; callers arriving while a check runs share it.
 */
function sharedChecks(checks: DependencyCheck[], now: () => number): () => Promise<CheckResults> {
  let latest: { startedAt: number; running: boolean; results: Promise<CheckResults> } | undefined;
  return () => {
    const at = now();
    if (latest === undefined || (!latest.running && at - latest.startedAt > READINESS_MAX_AGE_MS)) {
      const check = { startedAt: at, running: true, results: runChecks(checks) };
      // runChecks never rejects: each failure is a result.
      void check.results.then(() => (check.running = false));
      latest = check;
    }
    return latest.results;
  };
}

/** The methods the health paths serve (their other methods answer 405, see unserved-methods.ts). */
export function healthMethodsAt(path: string): readonly string[] | undefined {
  return path === '/health/live' || path === '/health/ready' ? HEAD_AND_GET : undefined;
}

/**
 * `/health/live` (the process answers) and `/health/ready` (its dependencies answer too, as they did at
 * most READINESS_MAX_AGE_MS ago). A plain path comparison rather than a router: it sits in front of every
 * request of the hot path. `now`: a monotonic clock in milliseconds (performance.now()).
 */
export function healthEndpoints(
  checks: DependencyCheck[],
  policy: ReadinessPolicy = strictReadiness,
  options: { now?: () => number } = {},
): Middleware {
  const checkedResults = sharedChecks(checks, options.now ?? (() => performance.now()));
  return async function health(ctx, next) {
    if (ctx.path !== '/health/live' && ctx.path !== '/health/ready') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    ctx.set('Cache-Control', 'no-store');
    if (ctx.path === '/health/live') {
      ctx.body = envelope({ status: 'ok' });
      return;
    }
    const { results, failures } = await checkedResults();
    // The policy reads the area's own state (the resolver's snapshot) afresh; only the dependencies' answers are shared.
    const verdict = policy(failures, results);
    ctx.status = verdict.status === 'unavailable' ? 503 : 200;
    ctx.body = verdict.status === 'unavailable' ? errorEnvelope(`Not ready: ${verdict.reason ?? ''}`, verdict) : envelope(verdict);
  };
}
