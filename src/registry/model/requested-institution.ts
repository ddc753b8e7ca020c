/**
 * The registry's institution a registration request names, as acceptance finds it (acceptance.service.ts)
 * and as the desk shows it to the curator before accepting: the one with the request's ROR id, else the one
 * with its name whatever the case. Acceptance never changes an institution it finds (a requester's ROR id
 * copied onto an institution found by name once made every page of unrelated namespaces link "ROR" to a
 * stranger's URL): the desk shows where the request and that institution differ, and the curator edits the
 * institution by hand if the request is right.
 */
import type { Knex } from 'knex';
import { canonicalRorId } from '../../core/ror-id.js';
import type { InstitutionRow } from '../../db/tables.js';
import { findInstitutionByRorId } from './institution-by-ror-id.js';
import type { RequestRow } from './registration-records.js';

export type RequestedInstitutionFields = Pick<RequestRow, 'institutionName' | 'institutionRorId'>;

export interface RequestedInstitution {
  institution: Pick<InstitutionRow, 'id' | 'name' | 'rorId'>;
  /** How it was found: by the request's ROR id, or by its name. */
  matchedBy: 'ror' | 'name';
}

/** The request's ROR id in its stored form; null when it gives none, or none that is a ROR id. */
export function requestedRorId(request: RequestedInstitutionFields): string | null {
  return request.institutionRorId === null ? null : (canonicalRorId(request.institutionRorId) ?? null);
}

export async function findRequestedInstitution(db: Knex, request: RequestedInstitutionFields): Promise<RequestedInstitution | undefined> {
  const rorId = requestedRorId(request);
  if (rorId !== null) {
    const byRor = await findInstitutionByRorId(db, rorId);
    if (byRor) return { institution: { id: byRor.id, name: byRor.name, rorId: byRor.rorId }, matchedBy: 'ror' };
  }
  const byName = await db('institutions').first('id', 'name', 'rorId').whereRaw('lower(name) = lower(?)', [request.institutionName.trim()]).orderBy('id');
  return byName && { institution: byName, matchedBy: 'name' };
}

/** Where the request's institution and the registry's differ in what acceptance would leave as it is. */
export interface InstitutionDifference {
  institution: Pick<InstitutionRow, 'id' | 'name' | 'rorId'>;
  matchedBy: 'ror' | 'name';
  requestedName: string;
  requestedRorId: string;
}

/**
 * The difference the curator should see before accepting, or undefined when there is none: an institution
 * found by name whose ROR id is not the request's, or one found by the ROR id under another name.
 */
export async function requestedInstitutionDifference(db: Knex, request: RequestedInstitutionFields): Promise<InstitutionDifference | undefined> {
  const rorId = requestedRorId(request);
  if (rorId === null) return undefined;
  const found = await findRequestedInstitution(db, request);
  if (!found) return undefined;
  const requestedName = request.institutionName.trim();
  const differs = found.matchedBy === 'name' ? found.institution.rorId !== rorId : found.institution.name.toLowerCase() !== requestedName.toLowerCase();
  return differs ? { ...found, requestedName, requestedRorId: rorId } : undefined;
}
