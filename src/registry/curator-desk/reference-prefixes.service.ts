/**
 * What the curator desk does with other registries' prefix lists (issue 15 item 6): shows the sources
 * loaded, and loads a pasted or chosen list as the CLI does (reference-prefixes-cli.ts), replacing that
 * source's list in one transaction.
 */
import { guessFormat, PrefixListError, readPrefixList, SOURCE_NAME, type PrefixListFormat } from '../../core/reference-prefix-list.js';
import type { Db } from '../../db/knex.js';
import { listReferenceSources, replaceReferencePrefixes, type ReferenceSource } from '../../db/reference-prefixes.js';

export type { ReferenceSource } from '../../db/reference-prefixes.js';

/**
 * The most the desk's list form may weigh, percent-encoded as the browser sends it: Bioregistry's whole
 * list with names is about 100 KB of text, and reading a form costs the registry's event loop about 30 ms a
 * MiB. A larger list is loaded with the CLI (`reference-prefixes --source <name> <file>`), which has no
 * such bound.
 */
export const REFERENCE_LIST_FORM_LIMIT = 1024 * 1024;

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
