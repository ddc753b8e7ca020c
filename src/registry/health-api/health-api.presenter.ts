import { NOT_FOUND_STREAK_DAYS, RELIABILITY_WINDOW_DAYS, reliabilityOf } from '../../core/reliability.js';
import { envelope, type Envelope } from '../../http/envelope.js';
import { formatReferenceDate } from '../../lib/dates.js';
import type { CheckRecord, HealthSummary, NamespaceHealth, ResourceHealth } from '../model/link-health.js';

/** Field order is the wire format's; dates as the rest of the API writes them. */
interface CheckStateJson {
  urlKind: string;
  outcome: string;
  httpStatus: number | null;
  checkedAt: string | null;
}

function checkState(check: CheckRecord | null | undefined): CheckStateJson | null {
  if (!check) return null;
  return { urlKind: check.urlKind, outcome: check.outcome, httpStatus: check.httpStatus, checkedAt: formatReferenceDate(check.checkedAt) };
}

function checkJson(check: CheckRecord) {
  return {
    urlKind: check.urlKind,
    url: check.url,
    checkedAt: formatReferenceDate(check.checkedAt),
    outcome: check.outcome,
    httpStatus: check.httpStatus,
    latencyMs: check.latencyMs,
    finalUrl: check.finalUrl,
    detail: check.detail,
    runId: check.runId,
  };
}

/** One resource's state: the same function ranks it in the resolver (core/reliability.ts). */
function resourceJson(health: ResourceHealth) {
  const m = health.measurement;
  return {
    resourceId: health.resourceId,
    mirId: health.mirId,
    namespacePrefix: health.namespacePrefix,
    currentState: { sample: checkState(health.latest.sample), home: checkState(health.latest.home) },
    reliability: reliabilityOf(m),
    sampleChecks: {
      windowDays: RELIABILITY_WINDOW_DAYS,
      up: m?.up ?? 0,
      counted: m?.counted ?? 0,
      notCounted: m?.uncounted ?? 0,
      notFoundStreakDays: NOT_FOUND_STREAK_DAYS,
      notFoundStreak: m?.notFoundStreak ?? false,
    },
    lastSuccess: checkState(health.lastSuccess),
    lastFailure: checkState(health.lastFailure),
    recentChecks: health.recent.map(checkJson),
  };
}

export type ResourceHealthJson = ReturnType<typeof resourceJson>;

export function presentResourceHealth(health: ResourceHealth): Envelope<ResourceHealthJson> {
  return envelope(resourceJson(health));
}

export function presentNamespaceHealth(health: NamespaceHealth): Envelope<{ namespacePrefix: string; resources: ResourceHealthJson[] }> {
  return envelope({ namespacePrefix: health.namespacePrefix, resources: health.resources.map(resourceJson) });
}

export function presentHealthSummary(summary: HealthSummary) {
  return envelope({
    latestChecks: summary.latestByUrlKind,
    lastRunFinishedAt: formatReferenceDate(summary.lastRunFinishedAt),
  });
}
