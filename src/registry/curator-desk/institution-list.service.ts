/**
 * The desk's list of institutions: a page at a time, found by a part of the name, each with the number of
 * providers that use it (an institution without any may be deleted).
 */
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import type { InstitutionRow } from '../../db/tables.js';
import { canMatch, escapeLike } from '../model/query-values.js';

/** Institutions listed per page: a page costs one count and one read of at most this many rows. */
export const INSTITUTIONS_PAGE_SIZE = 50;
/** The longest name part searched for (no institution's name is longer than a few hundred characters). */
export const INSTITUTION_SEARCH_MAX = 200;

export type ListedInstitution = Pick<InstitutionRow, 'id' | 'name' | 'rorId' | 'locationCountryCode'> & { providers: number };

/** One page of the institutions (`page` from 0, within the pages there are: a page past the last shows the last). */
export interface InstitutionPage {
  text: string;
  page: number;
  pages: number;
  total: number;
  institutions: ListedInstitution[];
}

export function createInstitutionList(db: Db) {
  return {
    /** The institutions whose name holds `text` (whatever the case; all for a blank one), by name. */
    async list(text: string, wanted: number): Promise<InstitutionPage> {
      const term = text.trim();
      if (!canMatch(term, INSTITUTION_SEARCH_MAX)) return { text, page: 0, pages: 1, total: 0, institutions: [] };
      const named = (query: Knex.QueryBuilder) => (term === '' ? query : query.whereRaw('name ILIKE ?', [`%${escapeLike(term)}%`]));
      const counted = await named(db('institutions')).count({ n: '*' }).first();
      const total = Number(counted?.n ?? 0);
      const pages = Math.max(1, Math.ceil(total / INSTITUTIONS_PAGE_SIZE));
      const page = Math.min(wanted, pages - 1);
      const institutions = (await named(db('institutions'))
        .select('id', 'name', 'rorId', 'locationCountryCode', db.raw('(SELECT count(*) FROM resources r WHERE r.institution_id = institutions.id)::int AS providers'))
        .orderByRaw('lower(name), id')
        .limit(INSTITUTIONS_PAGE_SIZE)
        .offset(page * INSTITUTIONS_PAGE_SIZE)) as ListedInstitution[];
      return { text, page, pages, total, institutions };
    },
  };
}

export type InstitutionList = ReturnType<typeof createInstitutionList>;
