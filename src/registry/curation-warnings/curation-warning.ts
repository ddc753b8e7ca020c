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
