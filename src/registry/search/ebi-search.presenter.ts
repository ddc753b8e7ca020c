/**
 * The two EBI Search shapes: the answer of an EBI Search REST query (what the reference's web app reads
 * for its browse page and home suggestions), and the registry's EBI Search export (the reference's
 * EbiSearchExporter, registry-behaviour.md), both in the field order they are documented with.
 */
import { joinJsonInSlices } from '../../lib/loop-turns.js';
import type { EbiDatasetNamespace } from './ebi-dataset.service.js';
import type { NamespaceHit, SearchResult } from '../model/namespace-search.service.js';

/** The domain our EBI Search answers are for: the path's last segment, and each entry's `source`. */
export const EBI_SEARCH_DOMAIN = 'identifiers_registry';

/** The fields an EBI Search query may ask for, each from its namespace column. */
const EBI_FIELDS: Readonly<Record<string, (hit: NamespaceHit) => string>> = {
  id: (hit) => String(hit.id),
  name: (hit) => hit.name,
  prefix: (hit) => hit.prefix,
  description: (hit) => hit.description,
  lui_pattern: (hit) => hit.pattern,
  sample_id: (hit) => hit.sampleId,
  mir_id: (hit) => hit.mirId,
  is_deprecated: (hit) => String(hit.deprecated),
};

export const DEFAULT_EBI_FIELDS = ['name', 'prefix', 'description', 'lui_pattern', 'sample_id'] as const;

/**
 * `fields=a,b` as EBI Search reads it: known names only, in the order asked. Own properties only: `in` also
 * finds what every object inherits (`__proto__`, `constructor`, `toString`), which then was called as a field.
 */
export function parseEbiFields(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_EBI_FIELDS];
  return [...new Set(raw.split(',').map((f) => f.trim()))].filter((f) => Object.hasOwn(EBI_FIELDS, f));
}

/** An EBI Search answer: every field a one-element array, as EBI Search writes them. */
export function presentEbiSearch(result: SearchResult, fields: readonly string[]) {
  return {
    hitCount: result.total,
    entries: result.hits.map((hit) => ({
      id: String(hit.id),
      source: EBI_SEARCH_DOMAIN,
      fields: Object.fromEntries(fields.map((f) => [f, [EBI_FIELDS[f]!(hit)]])),
    })),
    facets: [],
  };
}

/** yyyy-MM-dd in UTC. */
function day(date: Date | null): string {
  return date ? date.toISOString().slice(0, 10) : '';
}

// The reference drops every field a curator still has to fill in.
const CURATOR_REVIEW = 'CURATOR_REVIEW';

type LandingPage = (prefix: string) => string;

/** One namespace of the EBI Search export (an Entry with its Fields). */
function ebiEntry({ namespace: n, resources }: EbiDatasetNamespace, landingPage: LandingPage) {
  const fields: [string, string | null][] = [
    ['id', String(n.id)],
    ['name', n.name],
    ['description', n.description],
    ['prefix', n.prefix],
    ['mir_id', n.mirId],
    ['lui_pattern', n.pattern],
    ['sample_id', n.sampleId],
    ['creation_date', day(n.created)],
    ['modification_date', day(n.modified)],
    ['is_deprecated', String(n.deprecated)],
    ...(n.deprecated ? [['deprecation_date', day(n.deprecationDate)] as [string, string]] : []),
    ['landing_page', landingPage(n.prefix)],
  ];
  for (const r of resources) {
    fields.push(
      ['mir_id', r.mirId],
      ['resource_name', r.name],
      ['resource_description', r.description],
      ['institution_name', r.institutionName],
      ['institution_description', r.institutionDescription],
    );
  }
  return {
    cross_references: [],
    fields: fields.filter(([, value]) => value !== CURATOR_REVIEW).map(([name, value]) => ({ name, value })),
  };
}

// About a millisecond of writing per slice on the real registry.
const ENTRIES_PER_SLICE = 50;

/**
 * The EBI Search export (Database, Entry, Field of the reference's exporter), `landingPage` per prefix: the
 * bytes of its JSON, written a slice of entries per turn of the event loop.
 */
export async function writeEbiDataset(
  platform: { name: string; description: string },
  namespaces: readonly EbiDatasetNamespace[],
  landingPage: LandingPage,
): Promise<Buffer> {
  const entries = await joinJsonInSlices(namespaces, (namespace) => ebiEntry(namespace, landingPage), ENTRIES_PER_SLICE);
  const head = `{"name":${JSON.stringify(platform.name)},"description":${JSON.stringify(platform.description)},"entry_count":${namespaces.length},"entries":[`;
  return Buffer.from(`${head}${entries}]}`);
}
