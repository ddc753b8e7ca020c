import { bareRorId } from '../../../core/ror-id.js';
import type { Db } from '../../../db/knex.js';
import type { InstitutionWithLocationRow } from '../../../db/registry-reads.js';
import { findInstitutionByRorId } from '../../model/institution-by-ror-id.js';
import { lookUpRorOrganization, type RorApiSettings, type RorOrganization } from './ror-api.client.js';

export type { InstitutionWithLocationRow } from '../../../db/registry-reads.js';
export type { RorOrganization } from './ror-api.client.js';

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
