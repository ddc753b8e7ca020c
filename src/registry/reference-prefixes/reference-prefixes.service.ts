/**
 * What the curator desk does with other registries' prefix lists (issue 15 item 6): shows the sources
 * loaded, and loads a pasted or chosen list as the CLI does (reference-prefixes-cli.ts), replacing that
 * source's list in one transaction.
 */
import { guessFormat, PrefixListError, readPrefixList, SOURCE_NAME, type PrefixListFormat } from '../../core/reference-prefix-list.js';
import type { Db } from '../../db/knex.js';
import { listReferenceSources, replaceReferencePrefixes, type ReferenceSource } from '../../db/reference-prefixes.js';

export type { ReferenceSource } from '../../db/reference-prefixes.js';

export type ListLoad = { ok: true; source: string; loaded: number; removed: number } | { ok: false; errors: Record<string, string> };

export interface ReferencePrefixesService {
  sources(): Promise<ReferenceSource[]>;
  /** Loads `text` as `source`'s whole list; the refusals by form field (`source`, `list`). */
  load(source: string, text: string, format: PrefixListFormat | null): Promise<ListLoad>;
}

export function createReferencePrefixesService(db: Db): ReferencePrefixesService {
  return {
    sources: () => listReferenceSources(db),
    async load(rawSource, text, format): Promise<ListLoad> {
      const source = rawSource.trim();
      if (!SOURCE_NAME.test(source)) {
        return { ok: false, errors: { source: 'Name the registry in letters, digits, dots, dashes or underscores (such as bioregistry)' } };
      }
      let prefixes;
      try {
        prefixes = readPrefixList(text, format ?? guessFormat(text));
      } catch (error) {
        if (error instanceof PrefixListError) return { ok: false, errors: { list: `The list cannot be read: ${error.message}` } };
        throw error;
      }
      const { loaded, removed } = await replaceReferencePrefixes(db, source, prefixes);
      return { ok: true, source, loaded, removed };
    },
  };
}
