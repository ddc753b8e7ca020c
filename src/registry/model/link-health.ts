/**
 * What the link checks say about the registry's resources, as the health API serves it and the namespace
 * page shows it: the health-api feature implements HealthApiService, the pages are given it.
 */
import type { SampleMeasurement } from '../../core/reliability.js';
import type { LinkCheckOutcome, LinkCheckRow, LinkCheckUrlKind } from '../../db/tables.js';

export type CheckRecord = Pick<
  LinkCheckRow,
  'resourceId' | 'urlKind' | 'url' | 'runId' | 'checkedAt' | 'httpStatus' | 'latencyMs' | 'finalUrl' | 'outcome' | 'detail'
>;

/** What the link checks say about one resource. */
export interface ResourceHealth {
  resourceId: number;
  mirId: string;
  namespacePrefix: string;
  /** The last check of each URL kind. */
  latest: Partial<Record<LinkCheckUrlKind, CheckRecord>>;
  /** The last check that found a URL working (up, protected), and the last that found one down (bot blocks and skips are neither). */
  lastSuccess: CheckRecord | null;
  lastFailure: CheckRecord | null;
  /** Newest first, at most RECENT_CHECKS. */
  recent: CheckRecord[];
  /** Its sample-URL checks of the reliability window; undefined when there is none. */
  measurement: SampleMeasurement | undefined;
}

export interface NamespaceHealth {
  namespacePrefix: string;
  resources: ResourceHealth[];
}

export interface HealthSummary {
  /** Latest check of every resource and URL kind, counted by outcome class (every class listed). */
  latestByUrlKind: Record<LinkCheckUrlKind, Record<LinkCheckOutcome, number>>;
  /** When the last finished run finished; null before any has. */
  lastRunFinishedAt: Date | null;
}

export interface HealthApiService {
  resourceHealth(id: number): Promise<ResourceHealth | undefined>;
  namespaceHealth(prefix: string): Promise<NamespaceHealth | undefined>;
  summary(): Promise<HealthSummary>;
}
