/**
 * The curation warnings as the features that use them see them: the curation-warnings feature stores them
 * and answers their API; the curator desk is given CurationWarningsOverview for its warnings page.
 */
import type { CurationWarningEventType } from '../../db/tables.js';

/** The kinds of record a warning is about, as the notifications name them. */
export type WarningTargetType = 'namespace' | 'resource' | 'institution';

/** The reference's CurationWarning: a stored one (from the notifications), or one computed on request. */
export interface CurationWarning {
  /** Null for a warning computed on request (it has no item of its own). */
  id: number | null;
  globalId: string;
  type: string;
  open: boolean;
  created: Date | null;
  modified: Date | null;
  lastNotification: Date | null;
  latestEvent: { type: CurationWarningEventType; created: Date | null };
  /** The reference's detail rows as `{label: value}`. */
  moreDetails: Record<string, string>;
  /** Where the warning points, under /restApi (`/namespaces/987`). */
  targetPath: string;
}

/** One event of a stored warning's history. */
export interface CurationWarningEvent {
  id: number;
  warningId: number;
  type: CurationWarningEventType;
  actor: string;
  created: Date;
}

/** Days of usage the summary's namespaceUsage counts (the reference read its analytics' recent visits). */
export const SUMMARY_USAGE_DAYS = 30;

/** One target of the summary (GET /curationApi/warningsSummary): a namespace, or an institution, with its open warnings counted. */
export interface SummaryEntry {
  targetInfo: { type: 'Institution' | 'Prefix'; identifier: string; label: string };
  failingInstitutionUrl: number;
  lowAvailabilityResources: number;
  hasCurationValues: boolean;
  hasPossibleWikidataError: boolean;
  allDisabled: boolean;
}

export interface WarningsSummary {
  namespaceUsage: Record<string, number>;
  summaryEntries: SummaryEntry[];
}

/** An open warning with the record it is about, named (a resource's warning is listed under its namespace). */
export interface OpenWarning extends CurationWarning {
  id: number;
  about: { type: WarningTargetType; id: number; label: string };
}

export interface WarningsOverviewEntry {
  summary: SummaryEntry;
  /** A namespace's visits of the summary's days; undefined for an institution. */
  visits: number | undefined;
  warnings: OpenWarning[];
}

/** A page of the summary's targets (`page` from 0, within the pages there are), each with its open warnings. */
export interface WarningsOverviewPage {
  page: number;
  pages: number;
  /** Targets with open warnings. */
  total: number;
  entries: WarningsOverviewEntry[];
}

export interface CurationWarningsOverview {
  /** The summary's targets in its order, `size` a page; a page past the last shows the last. */
  overview(page: number, size: number): Promise<WarningsOverviewPage>;
}
