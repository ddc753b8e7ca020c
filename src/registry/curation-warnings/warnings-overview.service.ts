/**
 * The curators' overview of the open curation warnings (the desk's warnings page, as the reference's web app
 * shows its dashboard: the summary as a table, each target with its warnings' details).
 */
import type { Db } from '../../db/knex.js';
import type { CurationWarningsOverview, OpenWarning, WarningsOverviewEntry, WarningsOverviewPage } from '../model/curation-warnings.js';
import { selectWarnings, summarizeWarnings, toWarning, type WarningWithLatest } from './warnings.service.js';

type OpenWarningRowWithTarget = WarningWithLatest & {
  namespacePrefix: string | null;
  resourceName: string | null;
  resourcePrefix: string | null;
  institutionName: string | null;
};

function aboutOf(row: OpenWarningRowWithTarget): OpenWarning['about'] {
  if (row.namespaceId !== null) return { type: 'namespace', id: row.namespaceId, label: row.namespacePrefix ?? '' };
  if (row.resourceId !== null) return { type: 'resource', id: row.resourceId, label: row.resourceName ?? '' };
  return { type: 'institution', id: row.institutionId!, label: row.institutionName ?? '' };
}

/**
 * The curators' overview (the desk's warnings page): the summary's targets, a page of them, each with its
 * open warnings and what each is about. The summary is the API's; only the page's targets' warnings are read.
 */
export async function warningsOverview(db: Db, wanted: number, size: number): Promise<WarningsOverviewPage> {
  const summary = await summarizeWarnings(db);
  const total = summary.summaryEntries.length;
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(wanted, pages - 1);
  const shown = summary.summaryEntries.slice(page * size, (page + 1) * size);
  const institutionIds = shown.filter((e) => e.targetInfo.type === 'Institution').map((e) => Number(e.targetInfo.identifier));
  const prefixes = shown.filter((e) => e.targetInfo.type === 'Prefix').map((e) => e.targetInfo.identifier);
  const rows =
    shown.length === 0
      ? []
      : ((await selectWarnings(db)
          .select('n.prefix as namespacePrefix', 'r.name as resourceName', 'rn.prefix as resourcePrefix', 'i.name as institutionName')
          .leftJoin('namespaces as n', 'n.id', 'w.namespaceId')
          .leftJoin('resources as r', 'r.id', 'w.resourceId')
          .leftJoin('namespaces as rn', 'rn.id', 'r.namespaceId')
          .leftJoin('institutions as i', 'i.id', 'w.institutionId')
          .where('w.open', true)
          .where((q) => void q.whereIn('w.institutionId', institutionIds).orWhereIn('n.prefix', prefixes).orWhereIn('rn.prefix', prefixes))
          .orderBy('w.type')
          .orderBy('w.id')) as OpenWarningRowWithTarget[]);
  const byTarget = new Map<string, OpenWarning[]>();
  for (const row of rows) {
    const key = row.institutionId !== null ? `Institution\u0000${row.institutionId}` : `Prefix\u0000${row.namespacePrefix ?? row.resourcePrefix}`;
    const list = byTarget.get(key) ?? [];
    list.push({ ...toWarning(row), id: row.id, about: aboutOf(row) });
    byTarget.set(key, list);
  }
  const entries: WarningsOverviewEntry[] = shown.map((entry) => ({
    summary: entry,
    visits: entry.targetInfo.type === 'Prefix' ? (summary.namespaceUsage[entry.targetInfo.identifier] ?? 0) : undefined,
    warnings: byTarget.get(`${entry.targetInfo.type}\u0000${entry.targetInfo.identifier}`) ?? [],
  }));
  return { page, pages, total, entries };
}

/** What the curator desk is given (model/curation-warnings.ts). */
export function createWarningsOverview(db: Db): CurationWarningsOverview {
  return { overview: (page, size) => warningsOverview(db, page, size) };
}
