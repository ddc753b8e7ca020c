import { bareRorId } from '../../../core/ror-id.js';
import type { Db } from '../../../db/knex.js';
import { findInstitutionByRorIds, type InstitutionWithLocationRow } from '../../../db/registry-reads.js';
import { lookUpRorOrganization, type RorApiSettings, type RorOrganization } from './ror-api.client.js';

export type { InstitutionWithLocationRow } from '../../../db/registry-reads.js';
export type { RorOrganization } from './ror-api.client.js';

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

/** Where an institution looked up by ROR id was found. */
export type FoundInstitution =
  | { source: 'registry'; institution: InstitutionWithLocationRow }
  | { source: 'ror'; organization: RorOrganization };

/** What the ROR route and the request forms are given: the lookup on the registry, then at ROR. */
export interface RorService {
  /** Whether an id the registry lacks is asked at ROR (ROR_API_URL is not `off`). */
  readonly asksRor: boolean;
  findInstitutionByRorId(rorId: string): Promise<InstitutionWithLocationRow | undefined>;
  /**
   * The registry's institution with this ROR id, else ROR's organization (when ROR is asked and the text is
   * a ROR id), else undefined. Throws DomainError 'unavailable' when ROR cannot answer.
   */
  findInstitution(rorId: string): Promise<FoundInstitution | undefined>;
}

export function createRorService(db: Db, ror?: RorApiSettings): RorService {
  const asksRor = ror !== undefined && ror.baseUrl !== 'off';
  return {
    asksRor,
    findInstitutionByRorId: (rorId) => findInstitutionByRorId(db, rorId),
    async findInstitution(rorId) {
      const institution = await findInstitutionByRorId(db, rorId);
      if (institution) return { source: 'registry', institution };
      const bare = bareRorId(rorId);
      if (!asksRor || bare === undefined) return undefined;
      const organization = await lookUpRorOrganization(ror, bare);
      return organization && { source: 'ror', organization };
    },
  };
}
