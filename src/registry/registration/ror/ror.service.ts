import type { Db } from '../../../db/knex.js';
import { findInstitutionByRorIds, type InstitutionWithLocationRow } from '../../../db/registry-reads.js';

export type { InstitutionWithLocationRow } from '../../../db/registry-reads.js';

// A ROR id is `0` + 6 base-32 characters + a 2-digit checksum, alone or as https://ror.org/<id>.
const ROR_ID = /^(?:https?:\/\/(?:www\.)?ror\.org\/)?(0[a-z0-9]{6}[0-9]{2})\/?$/i;
// The ror_id column holds at most this much: longer input cannot match.
const ROR_ID_MAX_LENGTH = 2000;

/**
 * The stored forms a ROR id may have been written in: as given, the bare id, and the canonical URL (the
 * registry stores `https://ror.org/00f54p054`; clients also send `00f54p054`).
 */
export function rorIdForms(rorId: string): string[] {
  const forms = [rorId];
  const bare = ROR_ID.exec(rorId.trim())?.[1]?.toLowerCase();
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

/** What the ROR route is given: the lookup on the registry's database. */
export interface RorService {
  findInstitutionByRorId(rorId: string): Promise<InstitutionWithLocationRow | undefined>;
}

export function createRorService(db: Db): RorService {
  return { findInstitutionByRorId: (rorId) => findInstitutionByRorId(db, rorId) };
}
