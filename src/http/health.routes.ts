import { Router } from '@koa/router';

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

async function runChecks(checks: DependencyCheck[]) {
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

/** `/health/live` (the process answers) and `/health/ready` (its dependencies answer too). */
export function healthRoutes(checks: DependencyCheck[], policy: ReadinessPolicy = strictReadiness): Router {
  const router = new Router();
  router.get('/health/live', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { apiVersion: '1.0', errorMessage: null, payload: { status: 'ok' } };
  });
  router.get('/health/ready', async (ctx) => {
    const { results, failures } = await runChecks(checks);
    const verdict = policy(failures, results);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = verdict.status === 'unavailable' ? 503 : 200;
    ctx.body = {
      apiVersion: '1.0',
      errorMessage: verdict.status === 'unavailable' ? `Not ready: ${verdict.reason ?? ''}` : null,
      payload: verdict,
    };
  });
  return router;
}
