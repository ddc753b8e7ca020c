/**
 * The registry's institution with a given ROR id, whatever form the id was stored or asked in: the ROR
 * route and request forms ask it (registration), and so does acceptance (a request naming an institution
 * the registry has).
 */
import { bareRorId } from '../../core/ror-id.js';
import type { Db } from '../../db/knex.js';
import { findInstitutionByRorIds, type InstitutionWithLocationRow } from '../../db/registry-reads.js';

// The ror_id column holds at most this much: longer input cannot match.
const ROR_ID_MAX_LENGTH = 2000;

/**
 * The stored forms a ROR id may have been written in: as given, the bare id, and the canonical URL (the
 * registry stores `https://ror.org/00f54p054`; clients also send `00f54p054`).
 */
export function rorIdForms(rorId: string): string[] {
  const forms = [rorId];
  const bare = bareRorId(rorId);
  if (bare !== undefined) {
    for (const form of [bare, `https://ror.org/${bare}`]) if (!forms.includes(form)) forms.push(form);
  }
  return forms;
}

/** The registry's institution with this ROR id (any of its forms; the exact form first), if any. */
export async function findInstitutionByRorId(db: Db, rorId: string): Promise<InstitutionWithLocationRow | undefined> {
  if (rorId.length > ROR_ID_MAX_LENGTH) return undefined;
  return findInstitutionByRorIds(db, rorIdForms(rorId), rorId);
}

