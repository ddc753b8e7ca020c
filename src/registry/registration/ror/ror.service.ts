import type { Db } from '../../../db/knex.js';

export interface InstitutionRow {
  id: number;
  name: string;
  homeUrl: string;
  description: string;
  rorId: string | null;
  countryCode: string;
  countryName: string;
}

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
export async function findInstitutionByRorId(db: Db, rorId: string): Promise<InstitutionRow | undefined> {
  if (rorId.length > ROR_ID_MAX_LENGTH) return undefined;
  return (await db('institutions as i')
    .join('locations as l', 'l.countryCode', 'i.locationCountryCode')
    .first('i.id', 'i.name', 'i.homeUrl', 'i.description', 'i.rorId', 'l.countryCode', 'l.countryName')
    .whereIn('i.rorId', rorIdForms(rorId))
    .orderByRaw('(i.ror_id = ?) DESC, i.id', [rorId])) as InstitutionRow | undefined;
}
