import type { FoundInstitution, InstitutionWithLocationRow, RorOrganization } from './ror.service.js';

/** The reference's raw Institution JSON (no envelope), fields in its order. */
export interface InstitutionJson {
  id: number;
  name: string;
  homeUrl: string;
  description: string;
  rorId: string | null;
  location: { countryCode: string | null; countryName: string | null };
}

export function institutionJson(row: InstitutionWithLocationRow): InstitutionJson {
  return {
    id: row.id,
    name: row.name,
    homeUrl: row.homeUrl,
    description: row.description,
    rorId: row.rorId,
    location: { countryCode: row.countryCode, countryName: row.countryName },
  };
}

const idList = (ids: readonly string[]): string => `[${ids.join(', ')}]`;

/**
 * An organization found at ROR, as the reference answers it (RorDataModelsHelper): id 0 (not in the
 * registry), no rorId, and a description saying where it came from. The reference leaves the country's
 * name out; ROR v2 gives it, so it is passed on.
 */
export function rorInstitutionJson(org: RorOrganization): InstitutionJson {
  const wikidata = org.wikidataIds.length > 0 ? `Wikidata IDs ${idList(org.wikidataIds)}` : 'no Wikidata information';
  const isni = org.isniIds.length > 0 ? `ISNI IDs ${idList(org.isniIds)}` : 'no ISNI information';
  return {
    id: 0,
    name: org.name,
    homeUrl: org.homeUrl,
    description: `Organization information obtained from ROR API using ROR ID '${org.rorId}' with ${wikidata}, and ${isni}`,
    rorId: null,
    location: { countryCode: org.countryCode, countryName: org.countryName },
  };
}

export function foundInstitutionJson(found: FoundInstitution): InstitutionJson {
  return found.source === 'registry' ? institutionJson(found.institution) : rorInstitutionJson(found.organization);
}
