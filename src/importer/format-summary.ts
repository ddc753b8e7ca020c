import type { ImportSummary, KindSummary } from './import-registry.js';

function describeKind(name: string, kind: KindSummary): string {
  const deleted = kind.deleted === undefined ? '' : `, ${kind.deleted} deleted`;
  return `${name}: ${kind.created} created, ${kind.updated} updated, ${kind.unchanged} unchanged${deleted}`;
}

export function hasChanges(summary: ImportSummary): boolean {
  const kinds = [summary.namespaces, summary.resources, summary.institutions];
  return summary.locations.updated > 0 || kinds.some((k) => k.created + k.updated + (k.deleted ?? 0) > 0);
}

/** One line per kind, for people reading the import's output. */
export function formatSummary(summary: ImportSummary): string[] {
  const lines = [
    describeKind('namespaces', summary.namespaces),
    describeKind('resources', summary.resources),
    describeKind('institutions', summary.institutions),
    `locations: ${summary.locations.updated} updated, ${summary.locations.unchanged} unchanged`,
  ];
  if (!hasChanges(summary)) lines.push('No changes.');
  return lines;
}
