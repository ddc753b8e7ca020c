/**
 * The cases of every documented operation of both areas, and what the run must refuse to go on without:
 * an operation with no case at all (a method or body type the harness cannot send yet: it must be taught),
 * and a hand-written entry naming no documented operation (a renamed route's cases would be lost silently).
 */
import { deriveCases, type AttackCase, type CaseContext, type RouteExtras } from './case-derivation.js';
import { listOperations, operationKey, type Area, type OpenApiDocumentLike, type Operation } from './openapi-operations.js';

export interface PlannedRoute {
  operation: Operation;
  cases: AttackCase[];
}

export interface RoutePlan {
  routes: PlannedRoute[];
  /** `area METHOD /path` of each operation that got no case. */
  uncovered: string[];
  /** Keys of the hand-written table that name no documented operation. */
  unknownHandKeys: string[];
}

export function planRoutes(
  documents: Readonly<Record<Area, OpenApiDocumentLike>>,
  ctx: CaseContext,
  handTable: Readonly<Record<string, RouteExtras>>,
): RoutePlan {
  const routes: PlannedRoute[] = [];
  for (const area of ['resolver', 'registry'] as const) {
    for (const operation of listOperations(documents[area], area)) {
      routes.push({ operation, cases: deriveCases(operation, ctx, handTable[operationKey(operation)]) });
    }
  }
  const documented = new Set(routes.map((r) => operationKey(r.operation)));
  return {
    routes,
    uncovered: routes.filter((r) => r.cases.length === 0).map((r) => `${r.operation.area} ${operationKey(r.operation)}`),
    unknownHandKeys: Object.keys(handTable).filter((key) => !documented.has(key)),
  };
}

/** How a route is matched by HOSTILE_ROUTES and named in progress lines: `registry GET /changes`. */
export const routeName = (op: Operation): string => `${op.area} ${operationKey(op)}`;
